import { log } from "@/lib/observability/logger";
import { configuredEmbedder } from "@/lib/embeddings/registry";
import { EMBED_BATCH, embedMissingPassages, highestPid } from "@/lib/search/embed-passages";
import { keepVectorLists } from "@/lib/search/vector-lists";

const IDLE_MS = 15_000;

/**
 * Every passage's meaning stored beside it (lib/search/embed-passages.ts), in the background: each round, the passages
 * stored since the last (a new transcript, a correction), then one batch of the older ones that have none, going down
 * from the newest (the backfill: resumable, as what is missing is its state); idle for a while once there is nothing
 * to do; without pgvector, the lists of vectors kept (lib/search/vector-lists.ts). Off with SEARCH_EMBEDDER=off.
 */
export function scheduleEmbedding(): void {
  const globalState = globalThis as { verbatimEmbedding?: boolean };
  if (globalState.verbatimEmbedding) return;
  const embedder = configuredEmbedder();
  if (!embedder) return;
  globalState.verbatimEmbedding = true;
  // The vectors a query is embedded with, read now rather than on the first search (the file made first if need be).
  void embedder
    .prepare()
    .then(() => embedder.embedQuery("ready"))
    .catch((error: unknown) => log.warn({ err: error }, "search by meaning: the embedder is not ready"));
  let mark: bigint | null = null;
  let below: bigint | undefined;
  let backfilled = false;
  let done = 0;
  let listsLookedAt = false;
  const round = async (): Promise<number> => {
    let embedded = 0;
    const now = await highestPid();
    if (mark === null) mark = now;
    else if (now > mark) {
      for (;;) {
        const fresh = await embedMissingPassages(embedder, EMBED_BATCH, { above: mark, below: now + 1n });
        embedded += fresh.embedded;
        if (fresh.embedded < EMBED_BATCH) break;
      }
      mark = now;
    }
    if (!backfilled) {
      const older = await embedMissingPassages(embedder, EMBED_BATCH, { below: below ?? mark + 1n });
      embedded += older.embedded;
      if (older.lowest === null) {
        backfilled = true;
        log.info({ passages: done + embedded }, "search by meaning: every passage has its vector");
      } else below = older.lowest;
    }
    done += embedded;
    // Without pgvector, the lists of vectors a large scope is searched through: trained, and each new vector's set.
    // Looked at once at start and then after a round that stored vectors (it counts them: not every idle round).
    if (embedded > 0 || !listsLookedAt)
      await keepVectorLists(embedder.model).then(
        () => (listsLookedAt = true),
        (error: unknown) => log.error({ err: error }, "search by meaning: keeping the lists of vectors failed"),
      );
    return embedded;
  };
  const loop = () =>
    void round()
      .then(
        (embedded) => (embedded > 0 ? 0 : IDLE_MS),
        (error: unknown) => {
          log.error({ err: error }, "search by meaning: embedding passages failed");
          return IDLE_MS * 4;
        },
      )
      .then((wait) => setTimeout(loop, wait).unref());
  loop();
}
