// Relevance of search (`npm run bench -- search-relevance`): on the data-scale corpus of 100,000 published passages
// of real spoken English (data-scale.ts's seed, in a database of its own kept between runs, RELEVANCE_DB), for 50
// queries chosen from the corpus's own statistics (frequent, ordinary and rare words, two- and three-word queries,
// quoted phrases), page 1's top 10 of public search and of the busy user's library search against an exhaustive
// ranking of every match by the same scoring function, at most 3 moments per transcript: recall@10 per class
// (relevance-recall.ts: a tie at the 10th score is as right as the one the tie-breaks chose). Then planted best
// answers: 5 new transcripts, each with one passage saying the corpus's most frequent word six times and "<Word> day"
// in its title, published and in the busy user's history, stored by the app's own function (their passages cut by
// its trigger): their places on page 1 of both searches for the word and for a two-word query; removed again.
// With the history's bytes per entry (indexes included) and the database's size.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUSY, englishWords, install, openScaleDb, type ScaleDb } from "./data-scale-db";
import { digest, judgedQueries, matchCounts, type Judged } from "./relevance-queries";
import { recallAt, scoreLevel } from "./relevance-recall";
import type { Prisma } from "../../lib/generated/prisma/client";
import type { SearchScope } from "../../lib/search/search-statement";
import type { SearchMoment, SearchQuery } from "../../lib/search/schemas";

const K = 10;
/** How deep the exhaustive ranking is read: the scores of a page's results beyond its top 10 are looked up there. */
const DEPTH = 200;
const PLANTS = 5;

/** One ranked passage: its transcript and its segments, which a page's moment (segment_index) falls within. */
interface Ranked {
  transcriptId: string;
  segFrom: number;
  segTo: number;
  rank: number;
}
type Ranking = (scope: SearchScope, query: SearchQuery, k: number) => Promise<Ranked[]>;

/**
 * Today's scoring, exhaustively: the search statement itself (ts_rank_cd, at most 3 moments per transcript, its
 * tie-breaks, its visibility) with no bound on the matches it ranks, built from the query's readings as
 * find-moments.ts builds them. Not called once lib/search has rankAllMatches (exhaustiveRanking); delete it then.
 */
async function todaysRanking(): Promise<Ranking> {
  const { getDb } = await import("../../lib/db/client");
  const { rewriteCjkQuery, spaceCjkPhrases } = await import("../../lib/search/cjk");
  const { SEARCH_CONFIGS } = await import("../../lib/search/config");
  const { collapseNegations } = await import("../../lib/search/query-terms");
  const { hasCorrections, readingsOf } = await import("../../lib/search/queries");
  const { MOMENTS_PER_TRANSCRIPT } = await import("../../lib/search/find-moments");
  // By paths the type checker does not follow: the statement's input and the entries' query change with the
  // scoring, and then this is not called.
  const modules = ["search-statement", "query-terms"].map((name) => `../../lib/search/${name}`);
  const { searchStatement } = (await import(modules[0]!)) as {
    searchStatement(input: Record<string, unknown>): Prisma.Sql;
  };
  const { entryQuery } = (await import(modules[1]!)) as { entryQuery(tsquery: string, key: string): string };
  return async (scope, query, k) => {
    const db = await getDb();
    const rows = await readingsOf(db, collapseNegations(rewriteCjkQuery(query.q)), SEARCH_CONFIGS);
    const groups = new Map<string, { query: string; configs: string[]; indexable: string }>();
    for (const row of rows) {
      if (row.query === "" || row.indexable === "T") continue;
      const reading = spaceCjkPhrases(row.query, query.q);
      const group = groups.get(reading) ?? { query: reading, configs: [], indexable: row.indexable };
      group.configs.push(row.config);
      groups.set(reading, group);
    }
    if (groups.size === 0) return [];
    const readings = [...groups.values()];
    const lexemes =
      scope.kind === "library"
        ? entryQuery(
            [...new Set(readings.map((g) => `(${g.indexable})`))].join(" | "),
            digest(scope.userId).slice(0, 8),
          )
        : null;
    const statement = searchStatement({
      scope,
      readings,
      platform: null,
      lang: null,
      limit: k,
      offset: 0,
      perTranscript: MOMENTS_PER_TRANSCRIPT,
      candidates: 2_000_000_000,
      inOrder: false,
      lexemes,
      corrects: scope.kind === "library" ? await hasCorrections(db, scope.userId) : false,
    });
    return passagesOf(await db.$queryRaw<Record<string, unknown>[]>(statement));
  };
}

/** Rows of (transcriptId, seq, rank), with segFrom/segTo where they have them, as Ranked. */
async function passagesOf(rows: Record<string, unknown>[]): Promise<Ranked[]> {
  const { getDb } = await import("../../lib/db/client");
  const db = await getDb();
  const out: Ranked[] = [];
  for (const row of rows) {
    const transcriptId = String(row.transcriptId ?? row.transcript_id);
    let { segFrom, segTo } = row as { segFrom?: number; segTo?: number };
    // The statement's rows have the passage's segments' texts rather than its last segment.
    if (segTo === undefined && segFrom !== undefined && Array.isArray(row.texts))
      segTo = Number(segFrom) + row.texts.length - 1;
    if (segTo === undefined) {
      const [passage] = await db.$queryRawUnsafe<{ segFrom: number; segTo: number }[]>(
        `SELECT "segFrom", "segTo" FROM "SearchPassage" WHERE "transcriptId" = $1 AND "seq" = $2 LIMIT 1`,
        transcriptId,
        Number(row.seq),
      );
      ({ segFrom, segTo } = passage!);
    }
    out.push({ transcriptId, segFrom: Number(segFrom), segTo: Number(segTo), rank: Number(row.rank) });
  }
  return out;
}

/**
 * ── The exhaustive ranking: the one place to change when the scoring changes. ──
 * A module of lib/search that exports rankAllMatches(scope, query, k) (every match ranked by the search's own
 * scoring, best first: rows with transcriptId and seq, or segFrom/segTo, and rank) is used when there is one;
 * until then, today's statement without its bound on candidates (todaysRanking).
 */
async function exhaustiveRanking(): Promise<{ rank: Ranking; source: string }> {
  const dir = fileURLToPath(new URL("../../lib/search/", import.meta.url));
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .find((f) => /export\s+(async\s+)?(function|const)\s+rankAllMatches\b/.test(readFileSync(dir + f, "utf8")));
  if (file) {
    const { rankAllMatches } = (await import(`../../lib/search/${file.replace(/\.ts$/, "")}`)) as {
      rankAllMatches: (scope: SearchScope, query: SearchQuery, k: number) => Promise<Record<string, unknown>[]>;
    };
    return {
      rank: async (scope, query, k) => passagesOf(await rankAllMatches(scope, query, k)),
      source: `rankAllMatches (lib/search/${file})`,
    };
  }
  return { rank: await todaysRanking(), source: "ts_rank_cd over every match (today's statement, no candidate bound)" };
}

/** Which of `ranked` a page's moment is: the same transcript, its segment within the passage. */
const sameMoment = (m: SearchMoment, r: Ranked) =>
  r.transcriptId === m.transcript_id && m.segment_index >= r.segFrom && m.segment_index <= r.segTo;

/**
 * Recall@K of a page against the exhaustive ranking's first DEPTH: a result's score is its passage's there, or
 * the page's own rank (the same function) for one beyond them.
 */
function pageRecall(results: SearchMoment[], best: Ranked[]): number {
  const scores = results.slice(0, K).map((m) => best.find((r) => sameMoment(m, r))?.rank ?? m.rank);
  return recallAt(
    best.map((r) => r.rank),
    scores,
    K,
  );
}

/** A page of results, or why the search refused it (its 503: SEARCH_TIMEOUT_MS ran out; a 422) and none. */
async function pageOf(page: (q: SearchQuery) => Promise<SearchMoment[]>, query: SearchQuery) {
  try {
    return { results: await page(query), refused: null };
  } catch (error) {
    const e = error as { items?: { msg: string }[]; code?: string };
    const detail = e.code === "search_timed_out" ? e.code : e.items?.[0]?.msg;
    if (!detail) throw error;
    return { results: [], refused: detail };
  }
}

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

export async function benchSearchRelevance(): Promise<Record<string, number>> {
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const db = await openScaleDb("100k", process.env.RELEVANCE_DB ?? "verbatim_bench_relevance");
  install(db);
  const figures: Record<string, number> = {};
  try {
    if (db.seeded !== null) figures["seed 100k (s)"] = db.seeded;
    const { searchPublic, searchLibrary } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const { rank, source } = await exhaustiveRanking();
    console.log(`exhaustive ranking: ${source}`);
    const scopes: {
      name: "public" | "library";
      scope: SearchScope;
      page: (q: SearchQuery) => Promise<SearchMoment[]>;
    }[] = [
      { name: "public", scope: { kind: "public" }, page: async (q) => (await searchPublic(q)).results },
      {
        name: "library",
        scope: { kind: "library", userId: BUSY },
        page: async (q) => (await searchLibrary(BUSY, q)).results,
      },
    ];

    const judged = await judgedQueries(db);
    // "tied": how many of the exhaustive ranking's first DEPTH share its 10th score (any of them is as right).
    console.log(
      `\n| # | class | query | passages | busy user's | public recall@${K} | tied | library recall@${K} | tied |`,
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    const recalls: { kind: Judged["kind"]; scope: string; recall: number }[] = [];
    const failures: string[] = [];
    for (const [i, { kind, q }] of judged.entries()) {
      const query = searchQuerySchema.parse({ q });
      const counts = await matchCounts(db, q);
      const cells: string[] = [];
      for (const { name, scope, page } of scopes) {
        const { results, refused } = await pageOf(page, query);
        const best = await rank(scope, query, DEPTH);
        const recall = pageRecall(results, best);
        recalls.push({ kind, scope: name, recall });
        if (refused) failures.push(`${name} "${q}": ${refused}`);
        const tenth = best[Math.min(K, best.length) - 1];
        const tied = tenth ? best.filter((r) => scoreLevel(r.rank) === scoreLevel(tenth.rank)).length : 0;
        cells.push(
          refused ? "refused" : recall.toFixed(2),
          `${tied}${tied > 0 && best.length === DEPTH && best.at(-1)!.rank === tenth!.rank ? "+" : ""}`,
        );
      }
      console.log(`| ${i + 1} | ${kind} | ${q} | ${counts.all} | ${counts.library} | ${cells.join(" | ")} |`);
    }
    for (const failure of failures) console.log(`refused (recall 0): ${failure}`);
    figures["pages refused"] = failures.length;
    for (const name of ["public", "library"]) {
      for (const kind of [...new Set(judged.map((j) => j.kind))])
        figures[`recall@${K} ${name} ${kind}`] = mean(
          recalls.filter((r) => r.scope === name && r.kind === kind).map((r) => r.recall),
        );
      figures[`recall@${K} ${name} all ${judged.length}`] = mean(
        recalls.filter((r) => r.scope === name).map((r) => r.recall),
      );
    }

    // The most frequent word: the one whose matches outnumber most any bound on what is ranked, in both scopes.
    const word = judged.find((j) => j.kind === "frequent")!.q;
    const second = judged.find((j) => j.kind === "ordinary")!.q;
    Object.assign(figures, await planted(db, rank, scopes, word, second));

    const [size] = (
      await db.pool.query<{ entries: number; bytes: string; database: string }>(
        `SELECT (SELECT count(*) FROM "Transcription")::int AS entries, pg_total_relation_size('"Transcription"') AS bytes,
                pg_database_size(current_database()) AS database`,
      )
    ).rows;
    figures["history entries"] = size!.entries;
    figures["bytes per history entry (table and indexes)"] = Number(size!.bytes) / size!.entries;
    figures["database (MB)"] = Number(size!.database) / 2 ** 20;
    // The entries' own copy of their transcripts' words, where the history keeps one.
    const copies = await db.pool.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'Transcription' AND column_name = 'lexemes'`,
    );
    if (copies.rowCount! > 0) {
      const [words] = (
        await db.pool.query<{ bytes: number }>(
          `SELECT avg(pg_column_size("lexemes"))::float8 AS bytes FROM "Transcription"`,
        )
      ).rows;
      figures["of which its words (lexemes), average bytes"] = words!.bytes;
    }
  } finally {
    await db.prisma.$disconnect();
    await db.pool.end();
    delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
  }
  return figures;
}

/**
 * Inserts the planted answers (newest of all: one passage of each says `word` six times and `second` once),
 * reports their places on page 1 of each search for `word` and for `word second` (and in the exhaustive
 * ranking's top 20), and removes them again.
 */
async function planted(
  db: ScaleDb,
  rank: Ranking,
  scopes: { name: string; scope: SearchScope; page: (q: SearchQuery) => Promise<SearchMoment[]> }[],
  word: string,
  second: string,
): Promise<Record<string, number>> {
  const { storeTranscript } = await import("../../lib/transcripts/store-transcript");
  const { searchQuerySchema, SEARCH_PAGE } = await import("../../lib/search/schemas");
  // The stream's words without any form of `word`: the planted passages are the only ones of theirs that say it.
  const { rows: forms } = await db.pool.query<{ w: string }>(
    `SELECT w FROM unnest($1::text[]) AS w WHERE to_tsvector('english', w) @@ to_tsquery('english', $2)`,
    [[...new Set(englishWords())], word],
  );
  const excluded = new Set(forms.map((r) => r.w));
  const stream = englishWords().filter((w) => !excluded.has(w));
  // Whole segments of at least 200 characters: each its own passage (verbatim_index_transcript).
  const filler = (from: number, lead: string[] = []) => {
    const words = [...lead];
    for (let at = from; words.join(" ").length < 210; at++) words.push(stream[at]!);
    return words.join(" ");
  };
  const Word = word[0]!.toUpperCase() + word.slice(1);
  const around = stream.slice(7000, 7030);
  const said = filler(
    7030,
    around.flatMap((w, i) => (i % 5 === 0 ? [word, ...(i === 10 ? [second] : []), w] : [w])),
  );
  const ids: string[] = [];
  await removePlanted(db);
  const figures: Record<string, number> = {};
  try {
    for (let i = 1; i <= PLANTS; i++) {
      const videoId = `relplant${String(i).padStart(3, "0")}`;
      const segments = [
        { start: 0, end: 10, text: filler(1000 * i) },
        { start: 10, end: 20, text: said },
        { start: 20, end: 30, text: filler(1000 * i + 500) },
      ];
      const transcript = await storeTranscript(
        { platform: "youtube", videoId, lang: "en", origin: "captions" },
        {
          title: `${Word} day, part ${i}`,
          channel: "Relevance bench",
          sourceUrl: `https://www.youtube.com/watch?v=${videoId}`,
          durationSeconds: 30,
          segments,
        },
      );
      ids.push(transcript.id);
      // The entry recordTranscription writes (without its charge, which would change the user's usage).
      await db.prisma.transcription.create({
        data: {
          userId: BUSY,
          platform: "youtube",
          videoId,
          lang: "en",
          origin: "captions",
          transcriptId: transcript.id,
          state: "done",
          durationSeconds: 30,
          totalSeconds: 30,
        },
      });
      await db.prisma.publication.create({
        data: { slug: `relevance-plant-${i}`, userId: BUSY, transcriptId: transcript.id, publishedAt: new Date() },
      });
    }
    const [{ n }] = (
      await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "TranscriptPassage" WHERE "transcriptId" = ANY($1) AND "tsv" @@ to_tsquery('english', $2)`,
        [ids, word],
      )
    ).rows as [{ n: number }];
    if (n !== PLANTS) throw new Error(`the planted passages: ${n} hold "${word}", not ${PLANTS}`);
    console.log(
      `\nPlanted answers (${PLANTS} newest transcripts, "${word}" six times in one passage each, "${Word} day" in the title): places`,
    );
    console.log(
      `| query | search | page 1 (of ${SEARCH_PAGE}) | exhaustive top 20 | recall@${K} |\n|---|---|---|---|---|`,
    );
    for (const q of [word, `${word} ${second}`]) {
      const query = searchQuerySchema.parse({ q });
      for (const { name, scope, page } of scopes) {
        const { results, refused } = await pageOf(page, query);
        if (refused) console.log(`refused: ${name} "${q}": ${refused}`);
        const best = await rank(scope, query, DEPTH);
        const places = (ids_: string[]) => ids_.map((id, i) => (ids.includes(id) ? i + 1 : 0)).filter((p) => p > 0);
        const onPage = places(results.map((m) => m.transcript_id));
        const ideal = places(best.slice(0, 20).map((r) => r.transcriptId));
        const recall = pageRecall(results, best);
        console.log(
          `| ${q} | ${name} | ${onPage.join(", ") || "none"} | ${ideal.join(", ") || "none"} | ${recall.toFixed(2)} |`,
        );
        figures[`planted on page 1: ${name} "${q}" (of ${PLANTS})`] = onPage.length;
        figures[`recall@${K} with the planted: ${name} "${q}"`] = recall;
      }
    }
  } finally {
    await removePlanted(db);
  }
  return figures;
}

/** The planted transcripts, entries and publications gone (also what an interrupted run left). */
async function removePlanted(db: ScaleDb): Promise<void> {
  const where = { platform: "youtube", videoId: { startsWith: "relplant" } };
  await db.prisma.publication.deleteMany({ where: { slug: { startsWith: "relevance-plant-" } } });
  await db.prisma.transcription.deleteMany({ where: { userId: BUSY, ...where } });
  await db.prisma.transcript.deleteMany({ where });
}
