// The worst search queries one can send against an ordinary one, on 100,000+ passages, through the same
// lib/search functions (public scope: anonymous, half the transcripts published). Refused queries are timed
// to their 422; the unguarded cost of a negation-only query is timed as the bare statement it used to run.
// One transcript in ten is the real Chinese track, so a CJK query's bigrams have postings to intersect.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createMigratedTestDatabase } from "../../test/pg";
import { mempoolChineseTrack } from "../../test/search";
import { seedPostingAtTheEnd } from "./post-at-end";
import { percentile, seed, type Sql } from "./search";

/** 32 common words of the corpus, OR'ed: the broadest query the term cap lets through. */
const BROAD = [
  "people",
  "really",
  "know",
  "think",
  "going",
  "like",
  "time",
  "things",
  "world",
  "make",
  "want",
  "good",
  "life",
  "thing",
  "years",
  "work",
  "right",
  "way",
  "actually",
  "something",
  "first",
  "lot",
  "kind",
  "little",
  "great",
  "look",
  "different",
  "today",
  "need",
  "idea",
  "back",
  "said",
];

/** transcripts ÷ 10 copies of the Chinese track (lang zh), every second one published. */
async function seedChinese(db: Sql, count: number) {
  const segments = mempoolChineseTrack();
  await db.query(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "durationSeconds", "segments")
     SELECT 'bz-' || i, 'youtube', lpad(i::text, 11, 'z'), 'zh', 'captions', 'Bench 讲座 ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'z'), $2, $1::jsonb
     FROM generate_series(1, ${count}) AS i`,
    [JSON.stringify(segments), Math.ceil(segments.at(-1)!.end)],
  );
  await db.query(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
     SELECT 'bzp-' || i, 'bench-zh-' || i, 'bench-all', 'bz-' || i, now(), now() FROM generate_series(1, ${count}, 2) AS i`,
  );
  await db.query(`ANALYZE`);
}

/** The track's Chinese characters end to end, `length` of them: every bigram of it is in the index. */
function chineseRun(length: number): string {
  const chars = [
    ...mempoolChineseTrack()
      .flatMap((s) => s.text.match(/[\u4e00-\u9fff]+/g) ?? [])
      .join(""),
  ];
  return chars.slice(0, length).join("");
}

/** Seeds an empty database: the transcripts, a tenth as many Chinese ones, each word posted at the end. */
async function seedWorst(db: Sql, transcripts: number) {
  await seedPostingAtTheEnd(
    async (sql) => void (await db.query(sql)),
    async () => {
      await seed(db, transcripts);
      await seedChinese(db, Math.round(transcripts / 10));
    },
  );
  // What PostgreSQL's autovacuum does after so many inserts (and the embedded database's sweep, which runs it there):
  // the pages marked all-visible for index-only scans, and the statistics.
  await db.query("VACUUM");
  await db.query("ANALYZE");
}

/**
 * BENCH_SEARCH_WORST_DATABASE=embedded: the embedded default (PGlite in its thread, as `npm start` opens it with no
 * DATABASE_URL) in BENCH_SEARCH_WORST_DATA_DIR, kept between runs like a kept database below (seeded on the first),
 * else in a throwaway folder; reached through the app's own pool.
 */
async function embeddedBenchDatabase(transcripts: number) {
  const kept = process.env.BENCH_SEARCH_WORST_DATA_DIR;
  const dataDir = kept ?? (await mkdtemp(path.join(os.tmpdir(), "verbatim-search-worst-")));
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  const { pgPool } = await import("../../lib/db/client");
  const pool = await pgPool();
  const db: Sql = { query: async (sql, params) => (await pool.query(sql, params)).rows };
  const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Transcript"`)) as [{ n: number }];
  if (n === 0) {
    // The seed is one transaction, on one connection of the pool, given back before the app's searches need it.
    const client = await pool.connect();
    try {
      await seedWorst({ query: async (sql, params) => (await client.query(sql, params)).rows }, transcripts);
    } finally {
      client.release();
    }
  } else if (n !== transcripts + Math.round(transcripts / 10))
    throw new Error(`the kept data folder holds ${n} transcripts, not those of ${transcripts}: use another`);
  // What the app's start does on it (lib/app/schedule-cleanup.ts), and then hourly: no autovacuum runs there.
  const { maintainSearchTables } = await import("../../lib/search/search-maintenance");
  await maintainSearchTables();
  return {
    db,
    url: undefined,
    close: async () => {
      const { closeDatabase } = await import("../../lib/db/client");
      await closeDatabase();
      if (!kept) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * BENCH_SEARCH_WORST_DATABASE_URL names an existing (empty) database to keep between runs: migrated and seeded
 * on the first run, only queried on the next ones (seeding 100,000 passages is most of a run). Without it, a
 * throwaway database.
 */
async function benchDatabase(transcripts: number) {
  const kept = process.env.BENCH_SEARCH_WORST_DATABASE_URL;
  const database = kept ? { url: kept, drop: async () => {} } : await createMigratedTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const db: Sql = { query: async (sql, params) => (await client.query(sql, params)).rows };
  const close = async () => {
    await client.end();
    await database.drop();
  };
  const [seeded] = kept
    ? await db.query<{ n: boolean }>(`SELECT to_regclass('"Transcript"') IS NOT NULL AS n`)
    : [{ n: false }];
  if (kept && seeded!.n) {
    const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Transcript"`)) as [{ n: number }];
    if (n !== transcripts + Math.round(transcripts / 10))
      throw new Error(`the kept database holds ${n} transcripts, not those of ${transcripts}: use another`);
  } else {
    if (kept) {
      const { applyMigrations, pgExecutor } = await import("../../lib/db/migrate");
      await applyMigrations(pgExecutor(client));
    }
    await seedWorst(db, transcripts);
  }
  return { db, url: database.url, close };
}

export async function benchSearchWorst(): Promise<Record<string, number>> {
  const transcripts = Number(process.env.BENCH_SEARCH_WORST_TRANSCRIPTS ?? 5_000);
  const embedded = process.env.BENCH_SEARCH_WORST_DATABASE === "embedded";
  const { db, url, close } = embedded ? await embeddedBenchDatabase(transcripts) : await benchDatabase(transcripts);
  try {
    const [count] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM "TranscriptPassage"`);
    if (url) process.env.DATABASE_URL = url;
    process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
    const { searchPublic } = await import("../../lib/search/search-moments");
    const { encodeCursor, searchQuerySchema, SEARCH_MAX_PAGE, SEARCH_PAGE } = await import("../../lib/search/schemas");
    // `prefix`: the last word read as begun (the dashboard's box while a person types).
    const run = async (q: string, cursor?: string, prefix?: "true") => {
      const parsed = searchQuerySchema.safeParse({ q, cursor, prefix });
      if (!parsed.success) return "422 (schema)";
      try {
        const page = await searchPublic(parsed.data);
        return `200, ${page.results.length} moments${page.partial ? " (partial)" : ""}`;
      } catch (error) {
        if ((error as { name?: string }).name === "RequestValidationError") return "422";
        if ((error as { code?: string }).code === "search_timed_out") return "503";
        throw error;
      }
    };
    const median = async (label: string, q: string, cursor?: string, prefix?: "true", runs = 15) => {
      let outcome = await run(q, cursor, prefix); // warm-up
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        outcome = await run(q, cursor, prefix);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(`  ${label}: ${outcome}`);
      return percentile(times, 0.5);
    };
    const figures: Record<string, number> = {
      [`passages (${transcripts} transcripts and ${Math.round(transcripts / 10)} Chinese ones, ${embedded ? "embedded" : "PostgreSQL"})`]:
        Number(count!.n),
    };
    const every: [string, string, string?, "true"?][] = [
      ["ordinary: one word (people)", "people"],
      // A word begun, as the dashboard's box asks while a person types: the index's words it begins, read as one.
      ["a word begun while typing (peo…)", "peo", undefined, "true"],
      // The deepest page a client can ask for: the moments past the 980 before it.
      ["page 50 of a frequent word (people)", "people", encodeCursor((SEARCH_MAX_PAGE - 1) * SEARCH_PAGE)],
      // Words the seed's captions say ("weather" is said in none of them: a baseline that found nothing).
      ["ordinary: one rarer word (technology)", "technology"],
      ["ordinary: two words (technology companies)", "technology companies"],
      ["ordinary: a phrase", '"the first thing"'],
      ["ordinary: one Chinese word (比特币)", "比特币"],
      ["broadest allowed: 32 common words OR'ed", BROAD.join(" OR ")],
      [
        "a common word and 31 excluded ones",
        `people ${BROAD.slice(1)
          .map((w) => `-${w}`)
          .join(" ")}`,
      ],
      ["a long quoted phrase of common words", `"${BROAD.slice(0, 30).join(" ")}"`],
      ["one 499-character word", "x".repeat(499)],
      ["250 CJK characters (249 bigrams)", "比特币闪电网络".repeat(36).slice(0, 250)],
      ["500 CJK characters, one repeated word (499 bigrams)", "比特币闪电网络".repeat(72).slice(0, 500)],
      ["500 CJK characters of the indexed track (499 bigrams)", chineseRun(500)],
      ["the indexed track's first 40 CJK characters (a real sentence run)", chineseRun(40)],
      ["250 one-character CJK runs between letters (中a中a…)", "中a".repeat(250)],
      ["166 two-character CJK runs between letters (比特a比特a…)", "比特a".repeat(166)],
      ["one word of 250 parts joined by hyphens (a-a-a…)", `${"a-".repeat(249)}a`],
      ["125 × -zz (refused)", " -zz".repeat(125)],
      ["a word OR an excluded word (refused)", "people OR -zz"],
      ["a stop word and -zz (allowed: the 'simple' configuration reads 'the')", "the -zz"],
      ["40 × '- ' then a word (the word is excluded: refused)", `${"- ".repeat(40)}people`],
      ["a word then 40 minus signs", `people ${"-".repeat(40)}`],
    ];
    // BENCH_SEARCH_WORST_ONLY (a regular expression on the labels): those queries and the two one-word ones.
    const only = process.env.BENCH_SEARCH_WORST_ONLY ? new RegExp(process.env.BENCH_SEARCH_WORST_ONLY) : null;
    const queries = every.filter(([label]) => !only || label.startsWith("ordinary: one") || only.test(label));
    for (const [label, q, cursor, prefix] of queries)
      figures[`search-worst, ${label}: median ms`] = await median(label, q, cursor, prefix);
    // Ratios to a frequent word (its candidates capped) and to a rarer one (the cheaper, stricter baseline).
    for (const ordinary of ["ordinary: one word (people)", "ordinary: one rarer word (technology)"]) {
      const base = figures[`search-worst, ${ordinary}: median ms`]!;
      let worst = 0;
      for (const [label] of queries) {
        const ratio = figures[`search-worst, ${label}: median ms`]! / base;
        figures[`search-worst, ${label}: × ${ordinary.slice(10)}`] = ratio;
        worst = Math.max(worst, ratio);
      }
      figures[`search-worst, the costliest query: × ${ordinary.slice(10)} (goal ≤ 5)`] = worst;
    }
    // What the negation-only query cost before: every passage read (the index cannot help).
    const started = performance.now();
    await db.query(`SELECT count(*) FROM "TranscriptPassage" WHERE "tsv" @@ '!zz'::tsquery`);
    figures["unguarded: a bare scan for !zz (what 125 × -zz ran before), ms"] = performance.now() - started;
    if (!embedded) {
      const { getDb } = await import("../../lib/db/client");
      await (await getDb()).$disconnect();
      delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
    }
    return figures;
  } finally {
    await close();
  }
}
