// A local sentence model: its tokenizer (`@huggingface/tokenizers`, pure JS) and its ONNX graph (`onnxruntime-node`'s
// CPU build, the runtime the voice-activity detector already uses). A text's vector is the mean of the last hidden
// state over its tokens (the attention mask), made unit length: sentence-transformers' mean pooling. Both libraries are
// loaded on first use: a server with another embedder never loads the native runtime.
import { readFile } from "node:fs/promises";
import type { Tokenizer } from "@huggingface/tokenizers";
import type * as Ort from "onnxruntime-node";

/** Texts run through the graph at once: padded to the longest of them, so a few at a time pad little. */
const RUN_BATCH = 16;

export interface SentenceModelFiles {
  modelFile: string;
  tokenizerFile: string;
  /** Tokens read of a text, its [CLS] and [SEP] included. */
  maxTokens: number;
}

export interface SentenceVectors {
  dims: number;
  /** texts.length × dims numbers: text i's unit vector at i × dims, zeros where `known[i]` is 0. */
  vectors: Float32Array;
  /** 1 where the text had something to embed. */
  known: Uint8Array;
}

export class SentenceModel {
  private constructor(
    private readonly ort: typeof Ort,
    private readonly session: Ort.InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly maxTokens: number,
  ) {}

  /** `threads`: the graph's threads for one text's run (one in the serving thread, more in a worker). */
  static async load(files: SentenceModelFiles, threads: number): Promise<SentenceModel> {
    const [ort, { Tokenizer }] = await Promise.all([import("onnxruntime-node"), import("@huggingface/tokenizers")]);
    const tokenizer = new Tokenizer(JSON.parse(await readFile(files.tokenizerFile, "utf8")) as object, {});
    const session = await ort.InferenceSession.create(files.modelFile, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
    });
    return new SentenceModel(ort, session, tokenizer, files.maxTokens);
  }

  /** A text's token ids, the end of a longer one cut off (its closing special token kept). */
  tokens(text: string): number[] {
    const { ids } = this.tokenizer.encode(text);
    return ids.length <= this.maxTokens ? ids : [...ids.slice(0, this.maxTokens - 1), ids.at(-1)!];
  }

  async embed(texts: readonly string[]): Promise<SentenceVectors> {
    let dims = 0;
    let out = new Float32Array(0);
    const known = new Uint8Array(texts.length);
    for (let at = 0; at < texts.length; at += RUN_BATCH) {
      const batch = texts.slice(at, at + RUN_BATCH).map((text) => (text.trim() === "" ? null : this.tokens(text)));
      const pooled = await this.run(batch);
      if (!pooled) continue;
      if (dims === 0) {
        dims = pooled.dims;
        out = new Float32Array(texts.length * dims);
      }
      pooled.rows.forEach((row, i) => {
        if (!row) return;
        out.set(row, (at + i) * dims);
        known[at + i] = 1;
      });
    }
    return { dims, vectors: out, known };
  }

  private async run(batch: (number[] | null)[]): Promise<{ dims: number; rows: (Float32Array | null)[] } | null> {
    const present = batch.flatMap((ids, i) => (ids && ids.length > 0 ? [i] : []));
    if (present.length === 0) return null;
    const length = Math.max(...present.map((i) => batch[i]!.length));
    const ids = new BigInt64Array(present.length * length);
    const mask = new BigInt64Array(present.length * length);
    present.forEach((i, row) =>
      batch[i]!.forEach((id, t) => {
        ids[row * length + t] = BigInt(id);
        mask[row * length + t] = 1n;
      }),
    );
    const shape = [present.length, length];
    const { Tensor } = this.ort;
    const feeds: Record<string, Ort.Tensor> = {
      input_ids: new Tensor("int64", ids, shape),
      attention_mask: new Tensor("int64", mask, shape),
    };
    // A single text's segment ids are all 0; a graph without the input is not given it.
    if (this.session.inputNames.includes("token_type_ids"))
      feeds.token_type_ids = new Tensor("int64", new BigInt64Array(ids.length), shape);
    const results = await this.session.run(feeds);
    const hidden = results[this.session.outputNames[0]!]!;
    const dims = hidden.dims[2]!;
    const data = hidden.data as Float32Array;
    const rows: (Float32Array | null)[] = batch.map(() => null);
    present.forEach((i, row) => {
      const vector = new Float32Array(dims);
      const count = batch[i]!.length;
      for (let t = 0; t < count; t++) {
        const base = (row * length + t) * dims;
        for (let d = 0; d < dims; d++) vector[d]! += data[base + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += (vector[d]! / count) ** 2;
      norm = Math.sqrt(norm);
      if (!Number.isFinite(norm) || norm === 0) return;
      for (let d = 0; d < dims; d++) vector[d] = vector[d]! / count / norm;
      rows[i] = vector;
    });
    for (const tensor of Object.values(results)) tensor.dispose();
    return { dims, rows };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
