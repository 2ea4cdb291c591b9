// For each judged query (test/fixtures/captions/judged-search.ts): its nearest passages' similarities, its words
// (each word's reading, how many configurations read it as a stop word, its postings) and the app's results per mode
// (the app as it is, with whatever off-topic rule it has), as JSON to choose an off-topic rule by (the decision "a
// question whose words are mostly said nowhere in reach"). `npx tsx scripts/bench/offtopic-features.ts out.json`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createMigratedTestDatabase } from "../../test/pg";
import { JUDGED_QUERIES } from "../../test/fixtures/captions/judged-search";
import { storeJudgedLibrary } from "./judged-library";

const USER = "judged-reader";
async function main() {
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  try {
    const db = await getDb();
    const { searchLibrary } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const { ids } = await storeJudgedLibrary(db, USER);
    const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
    const { defaultModelFile, ensureModelFile } = await import("../../lib/embeddings/default-model");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    await ensureModelFile(defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data")));
    const embedder = configuredEmbedder()!;
    const { wordVectorsOf } = await import("../../lib/embeddings/default-model");
    const { textWords } = await import("../../lib/embeddings/embed");
    const { SEARCH_CONFIGS } = await import("../../lib/search/config");
    const vectors = await wordVectorsOf(defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data")));
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const rows = await db.$queryRawUnsafe<
      { pid: bigint; transcriptId: string; segFrom: number; segTo: number; vector: Uint8Array; scale: number }[]
    >(
      `SELECT p."pid", p."transcriptId", p."segFrom", p."segTo", e."vector", e."scale" FROM "TranscriptPassage" p JOIN "PassageEmbedding" e ON e."pid" = p."pid"`,
    );
    const vecs = rows.map((r) => ({ ...r, v: new Int8Array(r.vector.buffer, r.vector.byteOffset, r.vector.length) }));
    const passageOf = (m: { transcript_id: string; segment_index: number }) => {
      const p = rows.find(
        (p) => p.transcriptId === m.transcript_id && m.segment_index >= p.segFrom && m.segment_index <= p.segTo,
      );
      return p ? { track: keyOf.get(p.transcriptId)!, segFrom: p.segFrom, segTo: p.segTo, pid: String(p.pid) } : null;
    };
    const out = [];
    for (const judged of JUDGED_QUERIES) {
      const q = await embedder.embedQuery(judged.q);
      const scores: number[] = [];
      if (q)
        for (const r of vecs) {
          let dot = 0;
          for (let d = 0; d < r.v.length; d++) dot += r.v[d]! * q[d]!;
          scores.push(dot * r.scale);
        }
      scores.sort((a, b) => b - a);
      const terms = await db.$queryRawUnsafe<{ w: string; df: number | null }[]>(
        `SELECT qw.w, (SELECT count(*)::int FROM "SearchPosting" sp WHERE sp."termId" = st."id") AS df
         FROM (SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS w) AS qw LEFT JOIN "SearchTerm" st ON st."term" = qw.w`,
        judged.q,
      );
      const words = [];
      for (const word of textWords(judged.q)) {
        const [r] = await db.$queryRawUnsafe<{ lex: string | null; stops: number; df: number | null }[]>(
          `SELECT (tsvector_to_array(to_tsvector('english', $1)))[1] AS lex,
             (SELECT count(*)::int FROM unnest($2::text[]) c WHERE cardinality(tsvector_to_array(to_tsvector(c::regconfig, $1))) = 0) AS stops,
             (SELECT count(*)::int FROM "SearchPosting" sp JOIN "SearchTerm" st ON st."id" = sp."termId" WHERE st."term" = (tsvector_to_array(to_tsvector('english', $1)))[1]) AS df`,
          word,
          [...SEARCH_CONFIGS],
        );
        words.push({ word, rank: vectors.rank(word), ...r });
      }
      const modes: Record<string, unknown> = {};
      for (const mode of ["keyword", "meaning", "hybrid"] as const) {
        const res = await searchLibrary(USER, searchQuerySchema.parse({ q: judged.q, limit: "10", mode }));
        modes[mode] = res.results.map((m) => ({ ...passageOf(m), matched: m.matched, closeness: m.closeness }));
      }
      let mean = 0,
        sq = 0;
      for (const s of scores) {
        mean += s;
        sq += s * s;
      }
      mean /= scores.length || 1;
      const std = Math.sqrt(sq / (scores.length || 1) - mean * mean);
      out.push({ ...judged, words, top: scores.slice(0, 200), mean, std, terms, modes });
    }
    writeFileSync(process.argv[2] ?? "/tmp/offtopic-features.json", JSON.stringify(out, null, 0));
    console.log("passages", rows.length, "queries", out.length);
  } finally {
    await closeDatabase();
    await database.drop();
  }
}
await main();
