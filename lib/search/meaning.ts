// Search by meaning: the passages nearest the query's vector among those the caller may see (fuse.ts makes one list
// of them and the keyword ranking). A small scope is read whole; a larger one through pgvector's HNSW index where the database has it
// (vector-index.ts). Without it (Debian's PostgreSQL 15 has no pgvector) a scope of up to EXACT_MAX_PASSAGES is
// still read whole, each stored vector (PassageEmbedding) compared here, so both databases find the same moments;
// a larger one through the lists of vectors in plain tables (vector-lists.ts) where they are trained, completed by a
// bounded set of candidates: the best postings of each of the query's words (a natural question says some of its
// moment's words). Visibility is the keyword search's own rule
// (passageVisibility: done entries, live publications as their publisher sees them, a correction only for its
// author), applied to every candidate, inside the index's scan too.
import { getDb, type Db } from "@/lib/db/client";
import { cosine } from "@/lib/embeddings/embed";
import { env } from "@/lib/env";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import type { Embedder } from "@/lib/embeddings/embedder";
import { configuredEmbedder, configuredSecondStage } from "@/lib/embeddings/registry";
import type { SecondStage } from "@/lib/embeddings/second-stage";
import type { MomentRow } from "@/lib/search/find-moments";
import { Prisma } from "@/lib/generated/prisma/client";
import { statementTimeoutMs, stopIfPastDeadline, transactionLimits } from "@/lib/search/deadline";
import { settingsStatement } from "@/lib/search/planner-settings";
import { hasCorrections, runStatement, scopePassages } from "@/lib/search/queries";
import type { SearchQuery } from "@/lib/search/schemas";
import { aboutNothingHere } from "@/lib/search/off-topic";
import { scoreStoredVectors, type VectorCandidate } from "@/lib/search/stored-vectors";
import { SCOPE_MAX_PASSAGES } from "@/lib/search/search-plan";
import { passageVisibility, type SearchScope, type SqlStatement } from "@/lib/search/search-statement";
import { vectorColumn, vectorText } from "@/lib/search/vector-index";
import { nearestInLists } from "@/lib/search/vector-lists";
import { rerankCandidates, upgradedAny } from "@/lib/search/second-stage";
import { MOMENTS_PER_TRANSCRIPT } from "@/lib/search/fuse";

/** Postings read per word of the query: its best passages, the candidates it brings. */
export const MEANING_POSTINGS_PER_WORD = 512;
/** Words of the query whose postings are read (its rarest first is not known here: the first ones). */
const MEANING_WORDS = 8;

export type SearchMode = "hybrid" | "keyword" | "meaning";

/**
 * Whether `q` reads as prose, words a person says, rather than an identifier, a code, an address or a joined token
 * (`zz-no-such-video-zz`, `dQw4w9WgXcQ`, `v2.1`, `user@host`): each of its words is letters alone (an apostrophe
 * inside, punctuation around it; a compound of at most three parts joined by `-`: "far-right", "twenty-five") or a
 * number. Such a query's meaning is the average of its fragments' vectors,
 * near whatever speaks of any of them, so it is searched by its words alone.
 */
export function readsAsProse(q: string): boolean {
  const words = q
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word !== "");
  return (
    words.length > 0 &&
    words.every((word) => /^(?:\p{L}+(?:['’]\p{L}+)*(?:-\p{L}+(?:['’]\p{L}+)*){0,2}|\p{N}+)$/u.test(word))
  );
}

export interface Nearest {
  pid: bigint;
  transcriptId: string;
  /** Cosine similarity to the query, on the embedder's own scale (its profile says what is close). */
  score: number;
}

/**
 * Without a vector index, a scope of at most this many passages has every passage's stored vector compared, exactly
 * (its vectors read and compared here: about 12 MB read at the bound); a larger one, the lists of vectors. The
 * default's 228 dimensions cost the compare 2.3 times what its word vectors' 100 did: at 100,167 passages p50
 * 2,639 ms, past the search's deadline; at 50,069 p50 1,292 ms, p95 1,630 ms (`npm run bench -- search-vector-lists`).
 */
export const EXACT_MAX_PASSAGES = 50_000;

/** Passages read through the HNSW index at most, whatever the page: the nearest visible ones, before the cap. */
const INDEX_MAX_ROWS = 1_050;
/**
 * Index entries the HNSW scan reads at most while filtering to the visible passages (pgvector's iterative scan,
 * `hnsw.max_scan_tuples`): what bounds a search for a small visible share of a large index. A scan that stops
 * there short of its rows is completed by the bounded candidates.
 */
export const INDEX_MAX_SCAN = 20_000;

/**
 * The index scan's settings: iterative (it goes on past `ef_search` until the visible rows are found or
 * INDEX_MAX_SCAN entries are read), in relaxed order (sorted here after), and a candidate list of 200 (on the
 * bench's 26,361 passages it found 0.96 of the exact 10 nearest, 100 found 0.84, pgvector's default 40 fewer).
 */
export const INDEX_SCAN_SETTINGS: readonly [string, string][] = [
  ["hnsw.iterative_scan", "relaxed_order"],
  ["hnsw.max_scan_tuples", String(INDEX_MAX_SCAN)],
  ["hnsw.ef_search", "200"],
];

type Candidate = VectorCandidate;

/**
 * The visible passages nearest `query`'s meaning, best first, at most 3 a transcript, at most `k`. Empty when no
 * embedder is configured, its file is not made yet (the background job makes it), no candidate has a vector, or
 * the query does not read as prose, or its words say it is about nothing in reach (off-topic.ts). A scope of more than `indexFrom` passages (default SCOPE_MAX_PASSAGES) is
 * searched through the HNSW index where the database has pgvector; a smaller one, every passage of it.
 */
export async function nearestPassages(
  scope: SearchScope,
  query: Pick<SearchQuery, "q" | "platform" | "lang">,
  k: number,
  embedder: Embedder | null = configuredEmbedder(),
  {
    indexFrom = SCOPE_MAX_PASSAGES,
    index = true,
    asked,
    exactMax = EXACT_MAX_PASSAGES,
    offTopicFrom = env().SEARCH_OFF_TOPIC_FROM_PASSAGES,
    within = null,
    secondStage = configuredSecondStage(),
  }: {
    indexFrom?: number;
    /** false: the bounded candidates even where there is an index or lists (the bench compares them). */
    index?: boolean;
    /**
     * Given the query's vector, for the caller to find a passage's answering line with, and whether its words say
     * it is about nothing in reach (the embedder's profile's offTopicShare).
     */
    asked?: { vector: Float32Array | null; offTopic?: boolean; closeness?: number | null };
    /** Without an index, the largest scope compared whole (tests lower it). */
    exactMax?: number;
    /** The fewest passages in reach for a question to be judged off-topic by its words. */
    offTopicFrom?: number;
    /**
     * Only these transcripts' passages are candidates, every one compared (an alert's check and preview); whether
     * the question is about anything in reach is still judged over the whole scope by its words, and by the second
     * stage for each transcript apart.
     */
    within?: readonly string[] | null;
    /** The second stage that re-ranks the candidates (second-stage.ts); null: the first stage alone. */
    secondStage?: SecondStage | null;
  } = {},
): Promise<Nearest[]> {
  if (!embedder || !readsAsProse(query.q) || !(await embedder.ready())) return [];
  const db = await getDb();
  const [{ any }] = await db.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "PassageEmbedding" WHERE "model" = ${embedder.model}) AS any`;
  if (!any) return [];
  const indexed = await vectorColumn(db);
  // A scope the index serves is compared whole up to SCOPE_MAX_PASSAGES (as the keyword search reads it); without
  // an index, up to EXACT_MAX_PASSAGES.
  const exactUpTo = index && indexed ? SCOPE_MAX_PASSAGES : exactMax;
  const [corrects, scoped] = await Promise.all([
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
    scopePassages(db, scope, Math.max(exactUpTo, indexFrom) + 1),
  ]);
  const { offTopicShare } = embedder.profile;
  const [vector, offTopic] = await Promise.all([
    embedder.embedQuery(query.q),
    offTopicShare !== null &&
      scoped >= offTopicFrom &&
      aboutNothingHere(
        db,
        { scope, small: scoped <= SCOPE_MAX_PASSAGES, corrects },
        query.q,
        query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS,
        offTopicShare,
      ),
  ]);
  if (asked) asked.vector = vector;
  stopIfPastDeadline();
  if (!vector) return [];
  // Few of its words said anywhere in reach: whatever is nearest is only the least unlike, no answer.
  const nothingHere = () => {
    if (asked) asked.offTopic = true;
    return [];
  };
  if (offTopic) return nothingHere();
  const limit = Math.min(INDEX_MAX_ROWS, Math.max(3 * k, 60));
  let candidates: Candidate[] = [];
  // Past the exact bound without pgvector: the nearest lists of vectors, where trained (vector-lists.ts).
  const listed = index && !indexed && scoped > exactUpTo;
  if (within) candidates = await bounded(db, scope, query, embedder.model, vector, corrects, 0, 0, within);
  else if ((index && indexed && scoped > indexFrom) || listed) {
    candidates = listed
      ? ((await nearestInLists(db, embedder.model, vector, restrictions(scope, query, corrects), limit)) ?? [])
      : await throughIndex(db, scope, query, embedder.model, vector, corrects, limit);
    if (candidates.length < limit) {
      const seen = new Set(candidates.map((c) => c.pid));
      const more = await bounded(db, scope, query, embedder.model, vector, corrects, scoped, exactUpTo);
      candidates.push(...more.filter((c) => !seen.has(c.pid)));
    }
  } else candidates = await bounded(db, scope, query, embedder.model, vector, corrects, scoped, exactUpTo);
  // Once the second stage has read passages, it re-ranks the best candidates and says whether any is close enough.
  const second = secondStage && (await upgradedAny(db, secondStage.model)) ? secondStage : null;
  const reranked = second
    ? await rerankCandidates(db, second, query.q, candidates, embedder.profile, { perTranscript: within !== null })
    : null;
  stopIfPastDeadline();
  if (asked && reranked) asked.closeness = reranked.closeness;
  if (reranked?.ranked.length === 0) return nothingHere();
  const scored =
    reranked?.ranked ??
    candidates
      // Less alike than the embedder's floor is no answer: a question about nothing here finds nothing by meaning.
      .filter((c) => c.score >= embedder.profile.floor)
      .sort((a, b) => b.score - a.score || (b.pid > a.pid ? 1 : -1));
  const per = new Map<string, number>();
  const out: Nearest[] = [];
  for (const { pid, transcriptId, revisionId, score } of scored) {
    const key = `${transcriptId}:${revisionId ?? ""}`;
    const n = (per.get(key) ?? 0) + 1;
    per.set(key, n);
    if (n > MOMENTS_PER_TRANSCRIPT) continue;
    out.push({ pid, transcriptId, score });
    if (out.length >= k) break;
  }
  return out;
}

/** The caller's visibility (passageVisibility) and the query's filters. */
function restrictions(scope: SearchScope, query: Pick<SearchQuery, "platform" | "lang">, corrects: boolean) {
  const user = scope.kind === "library" ? Prisma.sql`${scope.userId}` : null;
  const show = scope.kind === "public" && scope.show ? Prisma.sql`${scope.show}` : null;
  const { visible } = passageVisibility({ user, show, corrects });
  const filters: Prisma.Sql[] = [];
  if (query.platform) filters.push(Prisma.sql`t."platform" = ${query.platform}`);
  if (query.lang) filters.push(Prisma.sql`lower(t."lang") = lower(${query.lang})`);
  const filtered =
    filters.length > 0
      ? Prisma.sql` AND EXISTS (SELECT 1 FROM "Transcript" t WHERE t."id" = p."transcriptId" AND ${Prisma.join(filters, " AND ")})`
      : Prisma.empty;
  return { user, visible, filtered };
}

/** The statement that reads the nearest visible passages through the HNSW index of `vector`'s dimensions. */
export function indexStatement(
  scope: SearchScope,
  query: Pick<SearchQuery, "platform" | "lang">,
  model: string,
  vector: Float32Array,
  corrects: boolean,
  limit: number,
): SqlStatement {
  const { visible, filtered } = restrictions(scope, query, corrects);
  // The dimensions are written in (the index's expression and its partial condition must match them as
  // constants): an integer, a vector's length.
  const dims = Prisma.raw(String(Math.trunc(vector.length)));
  const distance = Prisma.sql`e."embedding"::halfvec(${dims}) <=> ${vectorText(vector)}::halfvec(${dims})`;
  return Prisma.sql`SELECT p."pid", p."transcriptId", p."revisionId", (1 - (${distance}))::float8 AS score
     FROM "PassageEmbedding" e
     CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = e."pid" AND ${visible}${filtered} OFFSET 0) AS p
     WHERE vector_dims(e."embedding") = ${dims} AND e."model" = ${model}
     ORDER BY ${distance} LIMIT ${Prisma.raw(String(Math.trunc(limit)))}`;
}

/**
 * The nearest visible passages through pgvector's HNSW index (cosine), at most `limit`: the index read in order of
 * distance, each entry's passage looked up and kept when the caller may see it, until `limit` are kept or
 * INDEX_MAX_SCAN entries are read (an iterative scan, in relaxed order: sorted here after). The same statement on
 * PostgreSQL with pgvector and on PGlite.
 */
async function throughIndex(
  db: Db,
  scope: SearchScope,
  query: Pick<SearchQuery, "platform" | "lang">,
  model: string,
  vector: Float32Array,
  corrects: boolean,
  limit: number,
): Promise<Candidate[]> {
  const statement = indexStatement(scope, query, model, vector, corrects, limit);
  const timeoutMs = statementTimeoutMs();
  const settings = Object.fromEntries([
    ...INDEX_SCAN_SETTINGS,
    ["statement_timeout", String(timeoutMs)],
    ["max_parallel_workers_per_gather", "0"],
    ["jit", "off"],
  ]);
  return db.$transaction(async (tx) => {
    await tx.$queryRaw(settingsStatement(settings));
    return runStatement<Candidate>(tx, statement);
  }, transactionLimits(timeoutMs));
}

/**
 * The nearest among bounded candidates, without a vector index: each of the query's words' best postings (a
 * natural question says some of its moment's words) and, when the scope holds at most `exactUpTo` passages, every
 * passage of it (exact); each visible candidate's stored vector compared here.
 */
async function bounded(
  db: Db,
  scope: SearchScope,
  query: Pick<SearchQuery, "q" | "platform" | "lang">,
  model: string,
  vector: Float32Array,
  corrects: boolean,
  scoped: number,
  exactUpTo: number,
  within: readonly string[] | null = null,
): Promise<Candidate[]> {
  const { user, visible, filtered } = restrictions(scope, query, corrects);
  const configs = query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS;
  // The bounds are this module's integer constants, written in (Prisma.raw) as the planner's estimates want them.
  const words = Prisma.sql`SELECT DISTINCT w FROM unnest(${[...configs]}::text[]) AS c,
      unnest(tsvector_to_array(to_tsvector(c::regconfig, ${query.q}))) AS w LIMIT ${Prisma.raw(String(MEANING_WORDS))}`;
  const byWords = Prisma.sql`SELECT sp."pid" FROM (${words}) AS qw JOIN "SearchTerm" st ON st."term" = qw.w
      CROSS JOIN LATERAL (SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = st."id"
        ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${Prisma.raw(String(MEANING_POSTINGS_PER_WORD))}) AS sp`;
  const scopeTranscripts =
    user !== null
      ? Prisma.sql`SELECT DISTINCT h."transcriptId" FROM "Transcription" h WHERE h."userId" = ${user} AND h."state" = 'done' AND h."transcriptId" IS NOT NULL`
      : Prisma.sql`SELECT DISTINCT pub."transcriptId" FROM "Publication" pub WHERE pub."publishedAt" IS NOT NULL`;
  const byScope =
    scoped <= exactUpTo
      ? // A transcript's passages by its id (OFFSET 0: a lookup per transcript): joined, the planner read every passage.
        Prisma.sql` UNION SELECT p."pid" FROM (${scopeTranscripts}) AS s
          CROSS JOIN LATERAL (SELECT p."pid" FROM "SearchPassage" p WHERE p."transcriptId" = s."transcriptId" OFFSET 0) AS p`
      : Prisma.empty;
  // The candidates first (MATERIALIZED): folded into the visibility's join, the planner read the words' postings
  // once per transcript of the library. Each candidate's visibility is probed with it (inside the lateral): joined
  // after, the planner hashed every publication of the server to check a few candidates.
  const chosen = within
    ? Prisma.sql`SELECT p."pid" FROM unnest(${[...within]}::text[]) AS w(id)
        CROSS JOIN LATERAL (SELECT p."pid" FROM "SearchPassage" p WHERE p."transcriptId" = w.id OFFSET 0) AS p`
    : Prisma.sql`${byWords}${byScope}`;
  const statement = Prisma.sql`WITH c AS MATERIALIZED (${chosen})
     SELECT p."pid", p."transcriptId", p."revisionId", e."vector", e."scale"
     FROM c
     CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" AND ${visible}${filtered} OFFSET 0) AS p
     JOIN "PassageEmbedding" e ON e."pid" = p."pid" AND e."model" = ${model}`;
  return scoreStoredVectors(db, statement, vector);
}

/**
 * The line of a passage found by meaning that answers: the segment whose own vector is nearest the query's (a
 * passage is a few caption lines; its first is seldom the one that answers). Null when no line has a vector.
 */
export function answeringLine(query: Float32Array, lines: readonly (Float32Array | null)[]): number | null {
  let best: number | null = null;
  let bestScore = -Infinity;
  lines.forEach((line, i) => {
    if (!line || line.length !== query.length) return;
    const score = cosine(query, line);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}

/** The moments' rows of passages `pids` (visible ones: they came from the searches), in that order, rank = fused place. */
export async function momentRows(scope: SearchScope, pids: readonly bigint[]): Promise<MomentRow[]> {
  if (pids.length === 0) return [];
  const db = await getDb();
  const user = scope.kind === "library" ? scope.userId : null;
  const slug =
    user !== null
      ? Prisma.sql`(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."userId" = ${user} AND pub."publishedAt" IS NOT NULL LIMIT 1)`
      : Prisma.sql`(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (p."editorId" IS NULL OR pub."userId" = p."editorId") ORDER BY pub."publishedAt", pub."id" LIMIT 1)`;
  const rows = await db.$queryRaw<(MomentRow & { place: number })[]>`
    SELECT p."transcriptId", p."seq", p."pid", (1.0 / c.place)::float8 AS rank, c.place,
           t."title", t."platform", t."videoId", t."lang", t."sourceUrl",
           p."segFrom", seg.texts, seg.starts, seg.ends, p."start", p."end", seg.text AS marked, ${slug} AS slug
    FROM unnest(${[...pids]}::bigint[]) WITH ORDINALITY AS c(pid, place)
    CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" OFFSET 0) AS p
    JOIN "Transcript" t ON t."id" = p."transcriptId"
    LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
    CROSS JOIN LATERAL verbatim_passage_segments(coalesce(rev."segments", t."segments"), p."segFrom", p."segTo") AS seg
    ORDER BY c.place`;
  return rows;
}
