import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TranscriptionListQuery } from "@/lib/transcripts/schemas";

// The history table ("Transcription", h) in SQL: this module alone names it in a statement. Most of it pages a
// caller's history for GET /v1/me/transcriptions (which statement runs, over which window, is
// list-transcriptions.ts's choice); every one reads the caller's rows only, by an index with "userId" first
// (migrations flat_reads, flat_reads_indexes, history_covering_index). The others, at the end, are the pieces
// other modules' statements need: text for statements with positional parameters takes the parameters' names.

const SORT_COLUMNS = {
  created_at: "createdAt",
  duration_seconds: "durationSeconds",
  total_seconds: "totalSeconds",
} as const;

/** Which of the caller's entries, in which order: the list query's filters and sort. */
export type HistorySelection = Pick<TranscriptionListQuery, "platform" | "state" | "sort" | "order"> & {
  userId: string;
};

/** Rows `offset` to `offset + limit` of the selection's order, or of its reverse. */
export interface HistoryWindow {
  reversed: boolean;
  limit: number;
  offset: number;
}

const orderOf = (selection: HistorySelection, reversed: boolean) => {
  const direction = (selection.order === "asc") !== reversed ? "ASC" : "DESC";
  return Prisma.raw(`h."${SORT_COLUMNS[selection.sort]}" ${direction}, h."id" ${direction}`);
};

/** The caller's entries with the selection's platform and state: on "Transcription" (h) or "HistoryCount" (c). */
const filtersOf = (selection: HistorySelection, alias: "h" | "c") => {
  const column = (name: string) => Prisma.raw(`${alias}."${name}"`);
  return Prisma.join(
    [
      Prisma.sql`${column("userId")} = ${selection.userId}`,
      ...(selection.platform ? [Prisma.sql`${column("platform")} = ${selection.platform}`] : []),
      ...(selection.state ? [Prisma.sql`${column("state")} = ${selection.state}`] : []),
    ],
    " AND ",
  );
};

/** The caller's entries with those filters, from the counts the trigger keeps (one row per platform and state). */
const entryCount = (selection: HistorySelection) =>
  Prisma.sql`(SELECT coalesce(sum(c."n"), 0) FROM "HistoryCount" c WHERE ${filtersOf(selection, "c")})::int`;

/** The number of the caller's entries the selection holds (exact, from "HistoryCount"). */
export async function countEntries(db: Db, selection: HistorySelection): Promise<number> {
  return (await db.$queryRaw<{ entries: number }[]>`SELECT ${entryCount(selection)} AS entries`)[0]!.entries;
}

/** One window's ids, read from the index of the sort (the ids of a deep offset from the index alone). */
export async function entryIds(db: Db, selection: HistorySelection, window: HistoryWindow): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT h."id" FROM "Transcription" h WHERE ${filtersOf(selection, "h")}
      ORDER BY ${orderOf(selection, window.reversed)} LIMIT ${window.limit} OFFSET ${window.offset}`;
  return rows.map((row) => row.id);
}

/**
 * The entries whose "searchText" holds `pattern` (LIKE, lowered: "searchText" is kept in lower case), counted
 * exactly, and the selection's entries.
 */
export async function countMatches(
  db: Db,
  selection: HistorySelection,
  pattern: string,
): Promise<{ total: number; entries: number }> {
  const [counts] = await db.$queryRaw<{ total: number; entries: number }[]>`
    SELECT (SELECT count(*) FROM "Transcription" h WHERE ${filtersOf(selection, "h")} AND h."searchText" LIKE lower(${pattern}))::int AS total,
           ${entryCount(selection)} AS entries`;
  return counts!;
}

/** One window of the matches, by walking the sort's index and keeping the matches. */
export async function matchIdsWalked(
  db: Db,
  selection: HistorySelection,
  pattern: string,
  window: HistoryWindow,
): Promise<string[]> {
  // `|| ''` keeps the trigram index out of this plan: the sort's index is walked in order.
  const rows = await db.$queryRaw<{ id: string }[]>`
          SELECT h."id" FROM "Transcription" h WHERE ${filtersOf(selection, "h")} AND (h."searchText" || '') LIKE lower(${pattern})
          ORDER BY ${orderOf(selection, window.reversed)} LIMIT ${window.limit} OFFSET ${window.offset}`;
  return rows.map((row) => row.id);
}

/** One window of the matches, by finding them all (the trigram index, or the covering index) and sorting them. */
export async function matchIdsSorted(
  db: Db,
  selection: HistorySelection,
  pattern: string,
  window: HistoryWindow,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
          WITH m AS MATERIALIZED (
            SELECT h."id", h."${Prisma.raw(SORT_COLUMNS[selection.sort])}" FROM "Transcription" h
            WHERE ${filtersOf(selection, "h")} AND h."searchText" LIKE lower(${pattern})
          )
          SELECT h."id" FROM m AS h ORDER BY ${orderOf(selection, window.reversed)} LIMIT ${window.limit} OFFSET ${window.offset}`;
  return rows.map((row) => row.id);
}

/** Deletes the caller's failed requests (entries that failed before any job ran) past the newest `keep`. */
export async function deleteFailedRequestsPast(tx: Prisma.TransactionClient, userId: string, keep: number) {
  await tx.$executeRaw`
      DELETE FROM "Transcription" WHERE "id" IN (
        SELECT "id" FROM "Transcription"
        WHERE "userId" = ${userId} AND "state" = 'error' AND "errorCode" IS NOT NULL AND "jobId" IS NULL
        ORDER BY "createdAt" DESC, "id" DESC OFFSET ${keep})`;
}

/** The caller's entry for one source and language, locked until the transaction ends. */
export async function lockEntry(
  tx: Prisma.TransactionClient,
  key: { userId: string; platform: string; videoId: string; lang: string },
): Promise<{ id: string; state: string; jobId: string | null } | undefined> {
  const [entry] = await tx.$queryRaw<{ id: string; state: string; jobId: string | null }[]>`
        SELECT "id", "state", "jobId" FROM "Transcription"
        WHERE "userId" = ${key.userId} AND "platform" = ${key.platform} AND "videoId" = ${key.videoId} AND "lang" = ${key.lang}
        FOR UPDATE`;
  return entry;
}

/** A finished entry of a user's history for a transcript that is already stored (the benches' seeds). */
export interface DoneEntry {
  id: string;
  userId: string;
  platform: string;
  videoId: string;
  lang: string;
  /** The transcript's origin ("captions" or "asr"). */
  origin: string;
  transcriptId: string;
  /** Both the entry's duration and its total; default 0. */
  durationSeconds?: number;
}

/**
 * Inserts `entries` as `done` history entries in one statement, through a plain driver's `query` (pg's client,
 * PGlite): the seeds write their rows with those, beside the app's Prisma client. The triggers fill in the
 * search text and the counts as for any entry.
 */
export async function insertDoneEntries(
  query: (text: string, values: unknown[]) => Promise<unknown>,
  entries: readonly DoneEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof DoneEntry>(key: K) => entries.map((entry) => entry[key]);
  await query(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "durationSeconds", "totalSeconds", "updatedAt")
     SELECT e."id", e."userId", e."platform", e."videoId", e."lang", e."origin", e."transcriptId", 'done', e."seconds", e."seconds", now()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[])
       AS e("id", "userId", "platform", "videoId", "lang", "origin", "transcriptId", "seconds")`,
    [
      column("id"),
      column("userId"),
      column("platform"),
      column("videoId"),
      column("lang"),
      column("origin"),
      column("transcriptId"),
      entries.map((entry) => entry.durationSeconds ?? 0),
    ],
  );
}

/** Whether user `user` has the transcript row `t` in their history (store-transcript.ts's hot statement). */
export const inHistorySql = (user: string, t: string) => `EXISTS (
       SELECT 1 FROM "Transcription" e
       WHERE e."userId" = ${user} AND e."platform" = ${t}."platform" AND e."videoId" = ${t}."videoId"
         AND e."lang" = ${t}."lang" AND e."transcriptId" = ${t}."id"
     )`;
