// The embedding work a worker thread does (lib/app/parse-worker.ts hands it here): a batch of texts embedded with
// the word vectors of a file, or wink's JSON converted into that file. Its answers' vectors are one Float32Array,
// moved to the calling thread, not copied.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { convertWinkVectors } from "./convert-wink";
import { distilWords } from "./distil-words";
import { commonComponent, embedText, adoptCommonComponent } from "./embed";
import { SentenceModel, type SentenceModelFiles } from "./sentence-model";
import { WordVectors } from "./word-vectors";

export interface EmbedJob {
  kind: "embed";
  modelFile: string;
  /** The distilled vectors beside the word vectors (distil-words.ts), if the embedder has them. */
  distilledFile?: string;
  texts: string[];
}

export interface EmbedAnswer {
  ok: true;
  dims: number;
  /** texts.length × dims numbers: text i's unit vector at i × dims, zeros where `known[i]` is 0. */
  vectors: Float32Array;
  /** 1 where the text had a word with a vector. */
  known: Uint8Array;
}

/** A batch of texts embedded with a local sentence model (its graph read in the thread, run on `threads` threads). */
export interface SentenceEmbedJob extends SentenceModelFiles {
  kind: "embed-sentences";
  threads: number;
  texts: string[];
}

export interface ConvertJob {
  kind: "embeddings-convert";
  source: string;
  target: string;
  maxWords: number;
}

export interface DistilJob {
  kind: "embeddings-distil";
  target: string;
  folder: string;
  vocabularyFile: string;
  maxWords: number;
  only?: readonly string[];
}

export type ConvertAnswer = { ok: true; words: number; dims: number; bytes: number } | { ok: false; message: string };

/** Where a model file's common component is kept once computed (it costs a fraction of a second to compute). */
export const commonComponentFile = (modelFile: string) => `${modelFile}.common-v1`;

/** The common component kept beside `modelFile`, or null when none is kept (or it is not one of `dims`). */
export function readCommonComponent(modelFile: string, dims: number): Float32Array | null | undefined {
  try {
    const bytes = readFileSync(commonComponentFile(modelFile));
    if (bytes.length === 0) return null;
    if (bytes.length !== dims * 4) return undefined;
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  } catch {
    return undefined;
  }
}

/** The word vectors of `modelFile` with their common component: kept beside it, or computed here and kept. */
function vectorsWithComponent(modelFile: string): WordVectors {
  const vectors = new WordVectors(readFileSync(modelFile));
  const kept = readCommonComponent(modelFile, vectors.dims);
  if (kept !== undefined) adoptCommonComponent(vectors, kept);
  else {
    const component = commonComponent(vectors);
    const file = commonComponentFile(modelFile);
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, component ? Buffer.from(component.buffer, component.byteOffset, component.byteLength) : "");
    renameSync(partial, file);
  }
  return vectors;
}

export function answerEmbedJob(job: EmbedJob): EmbedAnswer {
  const vectors = vectorsWithComponent(job.modelFile);
  const distilled = job.distilledFile ? new WordVectors(readFileSync(job.distilledFile)) : null;
  const dims = vectors.dims + (distilled?.dims ?? 0);
  const out = new Float32Array(job.texts.length * dims);
  const known = new Uint8Array(job.texts.length);
  job.texts.forEach((text, i) => {
    const vector = embedText(vectors, text, distilled);
    if (!vector) return;
    out.set(vector, i * dims);
    known[i] = 1;
  });
  return { ok: true, dims, vectors: out, known };
}

export async function answerConvertJob(job: ConvertJob): Promise<ConvertAnswer> {
  try {
    return { ok: true, ...(await convertWinkVectors(job.source, job.target, { maxWords: job.maxWords })) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export async function answerDistilJob(job: DistilJob): Promise<ConvertAnswer> {
  try {
    const { words, dims } = await distilWords(job.target, job);
    return { ok: true, words, dims, bytes: 0 };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export async function answerSentenceEmbedJob(
  job: SentenceEmbedJob,
): Promise<EmbedAnswer | { ok: false; message: string }> {
  try {
    const model = await SentenceModel.load(job, job.threads);
    try {
      return { ok: true, ...(await model.embed(job.texts)) };
    } finally {
      await model.release();
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
