// A local sentence model (SEARCH_EMBEDDER=local; its files downloaded on first need by sentence-files.ts):
// texts in bulk (a transcript's passages) are embedded in a worker thread that reads the graph, runs it on the
// machine's cores and exits; a query, a few tokens, with the graph this process keeps (read once, run on one thread:
// milliseconds), as the default embedder's queries are.
import { availableParallelism } from "node:os";
import { runOffThread, type OffThreadSettings } from "@/lib/process/off-thread";
import { EmbedderUnavailable } from "./default-model";
import type { EmbedAnswer, SentenceEmbedJob } from "./embed-job";
import { SentenceModel, type SentenceModelFiles } from "./sentence-model";

const EMBED_SETTINGS: OffThreadSettings = { threads: 1, timeoutMs: 10 * 60_000, memoryMb: 512 };
/** A query's tokens: a search box's words, not a passage. */
const QUERY_TOKENS = 64;

/** Each text's unit vector (null: nothing to embed), computed in a worker thread. */
export async function embedSentencesOffThread(
  files: SentenceModelFiles,
  texts: string[],
): Promise<(Float32Array | null)[]> {
  if (texts.length === 0) return [];
  const job: SentenceEmbedJob = { kind: "embed-sentences", ...files, threads: availableParallelism(), texts };
  const answer = await runOffThread<EmbedAnswer | { ok: false; message: string }>(
    job,
    EMBED_SETTINGS,
    () => new EmbedderUnavailable("embedding with the local sentence model took too long or too much memory"),
  );
  if (!answer.ok) throw new EmbedderUnavailable(`the local sentence model failed: ${answer.message}`);
  return texts.map((_, i) => (answer.known[i] ? answer.vectors.slice(i * answer.dims, (i + 1) * answer.dims) : null));
}

const loaded = new Map<string, Promise<SentenceModel>>();

/** A query's unit vector, with the graph this process keeps (read on first use), or null. */
export async function embedSentenceQuery(files: SentenceModelFiles, text: string): Promise<Float32Array | null> {
  let pending = loaded.get(files.modelFile);
  if (!pending) {
    pending = SentenceModel.load({ ...files, maxTokens: Math.min(files.maxTokens, QUERY_TOKENS) }, 1);
    pending.catch(() => loaded.delete(files.modelFile));
    loaded.set(files.modelFile, pending);
  }
  const { dims, vectors, known } = await (await pending).embed([text]);
  return known[0] ? vectors.slice(0, dims) : null;
}
