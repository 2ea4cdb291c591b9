// Search by meaning: the passages nearest the query's vector among those the caller may see, fused with the keyword
// ranking. Without a vector index (pgvector is not on every server: Debian's PostgreSQL 15 has none), the nearest
// are found among a bounded set of candidates: the best postings of each of the query's words (a natural question
// says some of its moment's words) and, when the scope is small, every passage of it; each candidate's stored
// vector (PassageEmbedding) is compared here. Visibility is the keyword search's own rule (passageVisibility:
// done entries, live publications as their publisher sees them, a correction only for its author), applied to
// every candidate.
import { dbKind, getDb } from "@/lib/db/client";
import { cosine } from "@/lib/embeddings/embed";
import { env } from "@/lib/env";
import { SEARCH_CONFIGS, searchConfig } from "@/lib/search/config";
import { configuredEmbedder, dequantise, type Embedder } from "@/lib/search/embed-passages";
import type { MomentRow } from "@/lib/search/find-moments";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import { hasCorrections, runSearchStatement, scopePassages } from "@/lib/search/queries";
import type { SearchQuery } from "@/lib/search/schemas";
import { SCOPE_MAX_PASSAGES } from "@/lib/search/search-plan";
import { passageVisibility, type SearchScope } from "@/lib/search/search-statement";

/** Postings read per word of the query: its best passages, the candidates it brings. */
export const MEANING_POSTINGS_PER_WORD = 512;
/** Words of the query whose postings are read (its rarest first is not known here: the first ones). */
const MEANING_WORDS = 8;
/**
 * A passage less alike than this is no answer by meaning: a query about something no transcript speaks of finds
 * nothing rather than the least unlike passages (with the default embedder, on the judged set: "zeppelin" 0.20,
 * "quantum chromodynamics on a lattice" 0.27 at best; the moments that answer a question mostly 0.5-0.9).
 */
export const MEANING_MIN_SIMILARITY = 0.3;
/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009). */
export const RRF_K = 60;
const MOMENTS_PER_TRANSCRIPT = 3;

export type SearchMode = "hybrid" | "keyword" | "meaning";

/**
 * Whether `q` reads as prose, words a person says, rather than an identifier, a code, an address or a joined token
 * (`zz-no-such-video-zz`, `dQw4w9WgXcQ`, `v2.1`, `user@host`): each of its words is letters alone (an apostrophe
 * inside, punctuation around it) or a number. Such a query's meaning is the average of its fragments' vectors,
 * near whatever speaks of any of them, so it is searched by its words alone.
 */
export function readsAsProse(q: string): boolean {
  const words = q
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word !== "");
  return words.length > 0 && words.every((word) => /^(?:\p{L}+(?:['’]\p{L}+)*|\p{N}+)$/u.test(word));
}

export interface Nearest {
  pid: bigint;
  transcriptId: string;
  score: number;
}

/**
 * The visible passages nearest `query`'s meaning, best first, at most 3 a transcript, at most `k`. Empty when no
 * embedder is configured, its file is not made yet (the background job makes it), no candidate has a vector, or
 * the query does not read as prose.
 */
export async function nearestPassages(
  scope: SearchScope,
  query: Pick<SearchQuery, "q" | "platform" | "lang">,
  k: number,
  embedder: Embedder | null = configuredEmbedder(),
): Promise<Nearest[]> {
  if (!embedder || !readsAsProse(query.q) || !(await embedder.ready())) return [];
  const db = await getDb();
  const [{ any }] = await db.$queryRawUnsafe<{ any: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM "PassageEmbedding" WHERE "model" = $1) AS any`,
    embedder.model,
  );
  if (!any) return [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const configs = query.lang ? [searchConfig(query.lang)] : SEARCH_CONFIGS;
  const [corrects, scoped] = await Promise.all([
    scope.kind === "library" ? hasCorrections(db, scope.userId) : false,
    scopePassages(db, scope, SCOPE_MAX_PASSAGES + 1),
  ]);
  const user = scope.kind === "library" ? param(scope.userId) : null;
  const show = scope.kind === "public" && scope.show ? param(scope.show) : null;
  const { visible } = passageVisibility({ user, show, corrects });
  const words = `SELECT DISTINCT w FROM unnest(${param(configs)}::text[]) AS c,
      unnest(tsvector_to_array(to_tsvector(c::regconfig, ${param(query.q)}))) AS w LIMIT ${MEANING_WORDS}`;
  const byWords = `SELECT sp."pid" FROM (${words}) AS qw JOIN "SearchTerm" st ON st."term" = qw.w
      CROSS JOIN LATERAL (SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = st."id"
        ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${MEANING_POSTINGS_PER_WORD}) AS sp`;
  const scopeTranscripts =
    user !== null
      ? `SELECT DISTINCT h."transcriptId" FROM "Transcription" h WHERE h."userId" = ${user} AND h."state" = 'done' AND h."transcriptId" IS NOT NULL`
      : `SELECT DISTINCT pub."transcriptId" FROM "Publication" pub WHERE pub."publishedAt" IS NOT NULL`;
  const byScope =
    scoped <= SCOPE_MAX_PASSAGES
      ? // A transcript's passages by its id (OFFSET 0: a lookup per transcript): joined, the planner read every passage.
        ` UNION SELECT p."pid" FROM (${scopeTranscripts}) AS s
          CROSS JOIN LATERAL (SELECT p."pid" FROM "SearchPassage" p WHERE p."transcriptId" = s."transcriptId" OFFSET 0) AS p`
      : "";
  const filters: string[] = [];
  if (query.platform) filters.push(`t."platform" = ${param(query.platform)}`);
  if (query.lang) filters.push(`lower(t."lang") = lower(${param(query.lang)})`);
  const filtered =
    filters.length > 0
      ? ` AND EXISTS (SELECT 1 FROM "Transcript" t WHERE t."id" = p."transcriptId" AND ${filters.join(" AND ")})`
      : "";
  type Candidate = { pid: bigint; transcriptId: string; revisionId: string | null; vector: Uint8Array; scale: number };
  // The candidates first (MATERIALIZED): folded into the visibility's join, the planner read the words' postings
  // once per transcript of the library. Each candidate's visibility is probed with it (inside the lateral): joined
  // after, the planner hashed every publication of the server to check a few candidates.
  const text = `WITH c AS MATERIALIZED (${byWords}${byScope})
     SELECT p."pid", p."transcriptId", p."revisionId", e."vector", e."scale"
     FROM c
     CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" AND ${visible}${filtered} OFFSET 0) AS p
     JOIN "PassageEmbedding" e ON e."pid" = p."pid" AND e."model" = ${param(embedder.model)}`;
  // Under the search statement's settings (planner-settings.ts): the candidates are bounded, but on a large corpus the
  // planner's estimate of them passes jit_above_cost, and compiling cost many times the statement's own work (the
  // data-scale bench's meaning reads). PGlite has no JIT, and a transaction of its own would cost the statement a turn
  // of the embedded database.
  const rows =
    (await dbKind()) === "pglite"
      ? await db.$queryRawUnsafe<Candidate[]>(text, ...params)
      : await runSearchStatement<Candidate>(
          db,
          { text, params },
          searchPlannerSettings({ timeoutMs: env().SEARCH_TIMEOUT_MS }),
        );
  const withVectors = rows.filter((r) => r.vector.length > 0);
  if (withVectors.length === 0) return [];
  const vector = await embedder.embedQuery(query.q);
  if (!vector) return [];
  const scored = withVectors
    .map((r) => ({ row: r, score: cosine(vector, dequantise(r.vector, r.scale)!) }))
    .filter((r) => r.score >= MEANING_MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score || (b.row.pid > a.row.pid ? 1 : -1));
  const per = new Map<string, number>();
  const out: Nearest[] = [];
  for (const { row, score } of scored) {
    const key = `${row.transcriptId}:${row.revisionId ?? ""}`;
    const n = (per.get(key) ?? 0) + 1;
    per.set(key, n);
    if (n > MOMENTS_PER_TRANSCRIPT) continue;
    out.push({ pid: row.pid, transcriptId: row.transcriptId, score });
    if (out.length >= k) break;
  }
  return out;
}

/**
 * One list from the keyword moments and the nearest passages, by reciprocal rank fusion (each list's 1 / (60 +
 * place), summed), the moments that hold the whole query first: a query whose words are all said ranks its exact
 * moments first, the meaning ordering them among themselves and filling the page after them. At most 3 a
 * transcript; a passage in both lists is one. Each with its fused score.
 */
export function fuse(
  keyword: readonly { pid: bigint; transcriptId: string }[],
  meaning: readonly Nearest[],
): { pid: bigint; score: number }[] {
  const scores = new Map<bigint, { transcriptId: string; score: number }>();
  keyword.forEach(({ pid, transcriptId }, i) => scores.set(pid, { transcriptId, score: 1 + 1 / (RRF_K + i + 1) }));
  meaning.forEach(({ pid, transcriptId }, i) => {
    const known = scores.get(pid);
    scores.set(pid, { transcriptId, score: (known?.score ?? 0) + 1 / (RRF_K + i + 1) });
  });
  const per = new Map<string, number>();
  return [...scores.entries()]
    .sort((a, b) => b[1].score - a[1].score || (b[0] > a[0] ? 1 : -1))
    .filter(([, { transcriptId }]) => {
      const n = (per.get(transcriptId) ?? 0) + 1;
      per.set(transcriptId, n);
      return n <= MOMENTS_PER_TRANSCRIPT;
    })
    .map(([pid, { score }]) => ({ pid, score }));
}

/** The moments' rows of passages `pids` (visible ones: they came from the searches), in that order, rank = fused place. */
export async function momentRows(scope: SearchScope, pids: readonly bigint[]): Promise<MomentRow[]> {
  if (pids.length === 0) return [];
  const db = await getDb();
  const user = scope.kind === "library" ? scope.userId : null;
  const slug =
    user !== null
      ? `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."userId" = $2 AND pub."publishedAt" IS NOT NULL LIMIT 1)`
      : `(SELECT pub."slug" FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL
           AND (p."editorId" IS NULL OR pub."userId" = p."editorId") ORDER BY pub."publishedAt", pub."id" LIMIT 1)`;
  const rows = await db.$queryRawUnsafe<(MomentRow & { place: number })[]>(
    `SELECT p."transcriptId", p."seq", p."pid", (1.0 / c.place)::float8 AS rank, c.place,
            t."title", t."platform", t."videoId", t."lang", t."sourceUrl",
            p."segFrom", seg.texts, seg.starts, seg.ends, p."start", p."end",
            array_to_string(seg.texts, ' ') AS marked, ${slug} AS slug
     FROM unnest($1::bigint[]) WITH ORDINALITY AS c(pid, place)
     CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" OFFSET 0) AS p
     JOIN "Transcript" t ON t."id" = p."transcriptId"
     LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
     CROSS JOIN LATERAL (
       SELECT array_agg(s.text ORDER BY s.idx) AS texts, array_agg(s.start_s ORDER BY s.idx) AS starts, array_agg(s.end_s ORDER BY s.idx) AS ends
       FROM verbatim_segments(coalesce(rev."segments", t."segments")) AS s WHERE s.idx BETWEEN p."segFrom" AND p."segTo"
     ) AS seg
     ORDER BY c.place`,
    [...pids],
    ...(user !== null ? [user] : []),
  );
  return rows;
}
