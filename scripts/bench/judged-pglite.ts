// The app's search over a judged corpus on the embedded database (PGlite, pgvector's HNSW index), as
// `search-judged` judges it on PostgreSQL: the corpus's library stored in a fresh in-memory PGlite, every passage
// embedded by the background job's function, then the fused and meaning-only searches judged the same way.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyMigrations, pgliteExecutor } from "../../lib/db/migrate";
import { PGLITE_EXTENSIONS } from "../../lib/db/pglite-extensions";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { TUNE_CORPUS, type JudgedCorpus } from "../../test/fixtures/captions/judged-corpora";
import { judgeSearch, type JudgedPassage } from "../../test/judged-figures";
import type { SearchMoment } from "../../lib/search/schemas";
import { storeJudgedLibrary } from "./judged-library";
import { judgedFigures } from "./meaning-candidates";
import { judgeSecondStage } from "./second-stage-judged";

const USER = "judged-reader";

export async function judgeOnPglite(corpus: JudgedCorpus = TUNE_CORPUS): Promise<Record<string, number>> {
  const holder = globalThis as { verbatimDb?: unknown };
  const before = holder.verbatimDb;
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await applyMigrations(pgliteExecutor(pglite));
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  holder.verbatimDb = Promise.resolve({ client, kind: "pglite", pglite });
  const figures: Record<string, number> = {};
  try {
    const { searchLibrary } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    const { ids } = await storeJudgedLibrary(client, USER, corpus.tracks);
    const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
    const embedder = configuredEmbedder()!;
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const passages = await client.$queryRawUnsafe<
      { pid: bigint; transcriptId: string; segFrom: number; segTo: number }[]
    >(`SELECT "pid", "transcriptId", "segFrom", "segTo" FROM "TranscriptPassage"`);
    const toJudged = (results: readonly SearchMoment[]) =>
      results.flatMap((m): JudgedPassage[] => {
        const p = passages.find(
          (s) => s.transcriptId === m.transcript_id && m.segment_index >= s.segFrom && m.segment_index <= s.segTo,
        );
        return p
          ? [
              {
                pid: p.pid,
                track: keyOf.get(p.transcriptId)!,
                segFrom: p.segFrom,
                segTo: p.segTo,
                text: "",
                someWords: m.matched === "some_words" && m.closeness === null,
              },
            ]
          : [];
      });
    for (const [label, mode] of [
      ["meaning-only", "meaning"],
      ["fused", "hybrid"],
    ] as const) {
      const f = await judgeSearch(corpus.queries, async (q) =>
        toJudged((await searchLibrary(USER, searchQuerySchema.parse({ q, limit: "10", mode }))).results),
      );
      Object.assign(figures, judgedFigures(`app search on PGlite (HNSW), ${label}`, f));
    }
    Object.assign(
      figures,
      await judgeSecondStage({ corpus, userId: USER, prefix: "app search on PGlite (HNSW)", toJudged }),
    );
  } finally {
    holder.verbatimDb = before;
    await client.$disconnect();
    await pglite.close();
  }
  return figures;
}
