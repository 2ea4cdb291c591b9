import { getDb, type Db } from "@/lib/db/client";
import {
  countEntries,
  countMatches,
  entryIds,
  matchIdsSorted,
  matchIdsWalked,
  type HistorySelection,
  type HistoryWindow,
} from "@/lib/transcripts/history-queries";
import { serializeTranscription } from "@/lib/transcripts/serializers";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

/**
 * `q` as a LIKE pattern of "searchText", which the triggers keep in lower case (migration
 * history_search_lowercase): lower() of the pattern there makes LIKE exactly what ILIKE would be (PostgreSQL's
 * ILIKE lowers both sides in a multibyte database) without lowering every candidate row. The pattern's own
 * % _ and \\ are taken literally.
 */
const substringPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Where a page of `limit` rows at `offset` in an order of `total` rows is read from: past the middle, the same rows
 * are the page at total - offset - limit in the reverse order (every order ends with the id, so its reverse mirrors
 * it row for row), read that way and turned back. A deep offset then reads at most half the caller's rows, where
 * reading from the start would pass nearly all of them (docs/decisions/0007-reads-that-stay-flat-as-data-grows.md).
 */
function nearerEnd(query: TranscriptionListQuery, total: number): HistoryWindow {
  const fromEnd = total - query.offset - query.limit;
  return fromEnd >= query.offset
    ? { reversed: false, limit: query.limit, offset: query.offset }
    : { reversed: true, limit: query.limit + Math.min(0, fromEnd), offset: Math.max(0, fromEnd) };
}

/**
 * The ids of one page and the exact `total`. Every statement reads the caller's rows only, by an index
 * with "userId" first (migrations flat_reads and flat_reads_indexes):
 * - with `q`: see pageIdsMatching;
 * - without: the page from the index of the sort (user, sort column, id: the ids of a deep offset are read
 *   from the index alone), the total from "HistoryCount" (entries per platform and state, kept by a trigger).
 *   A first page is read alongside its total; a later one after it, from the nearer end (nearerEnd).
 */
async function pageIds(
  db: Db,
  userId: string,
  query: TranscriptionListQuery,
): Promise<{ ids: string[]; total: number }> {
  const selection: HistorySelection = { userId, ...query };
  if (query.q) return pageIdsMatching(db, query.q, query, selection);
  if (query.offset === 0) {
    const [ids, total] = await Promise.all([
      entryIds(db, selection, { reversed: false, limit: query.limit, offset: 0 }),
      countEntries(db, selection),
    ]);
    return { ids, total };
  }
  const total = await countEntries(db, selection);
  if (query.offset >= total) return { ids: [], total };
  const window = nearerEnd(query, total);
  const ids = await entryIds(db, selection, window);
  return { ids: window.reversed ? ids.reverse() : ids, total };
}

/**
 * An entry that a walk of the duration or total-seconds index passes costs a visit to its heap page (a
 * user's entries are spread among everyone's), about ten times what reading it from the covering index
 * costs, as measured with `npm run bench -- data-scale`.
 */
const HEAP_VISIT_COST = 10;

/**
 * With `q`: the exact count first. A rare `q` is found by the trigram index ("userId", "searchText"); one that
 * many entries hold, by an index-only scan of the caller's range of the covering index ("userId",
 * "createdAt", "id") INCLUDE (searchText, state, platform, durations) (migration history_covering_index);
 * PostgreSQL picks by its estimate. Either reads the caller's rows only. An exact count must check every
 * match (a trigram index says a row may hold the substring, not that it does), so it costs what the caller's
 * matches are, never what everyone's data is. Knowing the count, the page takes the cheaper of two paths:
 * - walking the sort's index and keeping the matches, which stops after about (offset + limit) × entries ÷
 *   matches entries (each a heap visit, HEAP_VISIT_COST, unless the sort is the covering index's): the way
 *   for a `q` that most entries match, whose page would otherwise sort every match;
 * - or all matches, sorted: the way for a rare `q`, where a walk would read most of the history.
 * Either from the nearer end (nearerEnd).
 */
async function pageIdsMatching(
  db: Db,
  q: string,
  query: TranscriptionListQuery,
  selection: HistorySelection,
): Promise<{ ids: string[]; total: number }> {
  const pattern = substringPattern(q);
  const { total, entries } = await countMatches(db, selection, pattern);
  if (total === 0 || query.offset >= total) return { ids: [], total };
  const window = nearerEnd(query, total);
  const walked = ((window.offset + window.limit) * entries) / total;
  const ids =
    walked * (query.sort === "created_at" ? 1 : HEAP_VISIT_COST) < total
      ? await matchIdsWalked(db, selection, pattern, window)
      : await matchIdsSorted(db, selection, pattern, window);
  return { ids: window.reversed ? ids.reverse() : ids, total };
}

/** GET /v1/me/transcriptions: the caller's history (failed link requests included), filtered, sorted and paged. */
export async function listTranscriptions(userId: string, query: TranscriptionListQuery) {
  const db = await getDb();
  const { ids, total } = await pageIds(db, userId, query);
  const found = ids.length
    ? await db.transcription.findMany({
        where: { id: { in: ids } },
        include: { transcript: { select: { title: true, sourceUrl: true } } },
      })
    : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  // In the page's order; an entry deleted between the two statements is left out.
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  // A failed job's reason, for the failed entries on this page (one query).
  const failedJobIds = rows.filter((row) => row.state === "error" && row.jobId).map((row) => row.jobId!);
  const failedJobs = failedJobIds.length
    ? await db.job.findMany({
        where: { id: { in: failedJobIds } },
        select: { id: true, errorCode: true, errorMessage: true },
      })
    : [];
  const failures = new Map(
    failedJobs.map((job) => [
      job.id,
      { code: job.errorCode ?? "job_failed", message: job.errorMessage ?? "The transcription job failed." },
    ]),
  );
  // The caller's live publications of this page's transcripts (one query, by Publication(userId, transcriptId)).
  const transcriptIds = rows.flatMap((row) => (row.state === "done" && row.transcriptId ? [row.transcriptId] : []));
  const publications = transcriptIds.length
    ? await db.publication.findMany({
        where: { userId, transcriptId: { in: transcriptIds }, publishedAt: { not: null } },
        select: { transcriptId: true, slug: true },
      })
    : [];
  const published = new Map(publications.map((p) => [p.transcriptId, p.slug]));
  // Who asked, in a team's library (Transcription.actorId): one query for the page's members.
  const actorIds = [...new Set(rows.flatMap((row) => (row.actorId ? [row.actorId] : [])))];
  const actors = actorIds.length
    ? await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true, name: true } })
    : [];
  const actorLabels = new Map(actors.map((actor) => [actor.id, actor.email ?? actor.name ?? null]));
  return {
    transcriptions: rows.map((row) =>
      serializeTranscription(
        row,
        row.jobId ? failures.get(row.jobId) : null,
        row.transcriptId ? published.get(row.transcriptId) : null,
        row.actorId ? actorLabels.get(row.actorId) : null,
      ),
    ),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}
