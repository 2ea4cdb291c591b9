// The thread that keeps Universal Sentence Encoder lite loaded for search by meaning's second stage
// (use-lite-thread.ts starts it through lib/app/parse-worker.ts): unlike a parse's thread, it lives on, answering
// one request after another (texts in, their unit vectors out as one Float32Array, moved, not copied), until the
// process lets it go when idle. The model is read on the first request.
import type { MessagePort } from "node:worker_threads";
import { loadUseLite, type UseLite } from "./use-lite";

export interface UseLiteServeJob {
  kind: "use-lite-serve";
  /** The package's folder of files (use-lite.ts useLiteFolder). */
  folder: string;
}

export interface UseLiteRequest {
  id: number;
  texts: string[];
}

export type UseLiteReply =
  | { id: number; ok: true; dims: number; vectors: Float32Array }
  | { id: number; ok: false; message: string };

/** `vectors` scaled to unit length in place (a zero vector stays zero). */
export function unitRows(vectors: Float32Array, dims: number): Float32Array {
  for (let at = 0; at < vectors.length; at += dims) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += vectors[at + d]! ** 2;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dims; d++) vectors[at + d]! *= inv;
  }
  return vectors;
}

export function serveUseLite(port: MessagePort, job: UseLiteServeJob): void {
  let model: Promise<UseLite> | null = null;
  // One request at a time, in the order they came (the calling side orders them: a query before a batch).
  let chain = Promise.resolve();
  port.on("message", (request: UseLiteRequest) => {
    chain = chain.then(async () => {
      try {
        model ??= loadUseLite(job.folder);
        const loaded = await model;
        const rows = await loaded.embed(request.texts);
        const vectors = new Float32Array(rows.length * loaded.dims);
        rows.forEach((row, i) => vectors.set(row, i * loaded.dims));
        unitRows(vectors, loaded.dims);
        const reply: UseLiteReply = { id: request.id, ok: true, dims: loaded.dims, vectors };
        port.postMessage(reply, [vectors.buffer as ArrayBuffer]);
      } catch (error) {
        const reply: UseLiteReply = {
          id: request.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        };
        port.postMessage(reply);
      }
    });
  });
}
