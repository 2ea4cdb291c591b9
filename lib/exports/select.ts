import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, errors } from "@/lib/http/errors";
import { searchLibrary } from "@/lib/search/search-moments";
import { SEARCH_MAX_OFFSET, SEARCH_MAX_PAGE, type SearchQuery } from "@/lib/search/schemas";
import type { ExportRequest } from "./schemas";

/** The history entries an export holds: a filter on the account's finished entries, and how many it matches. */
export interface Selection {
  where: Prisma.TranscriptionWhereInput;
  count: number;
  /** One transcript named by id: answered as its note alone unless a zip is asked for. */
  single: boolean;
}

/**
 * The finished entries of `accountId`'s history that `request` selects. Every selection is read through the
 * account's own history, so what the caller cannot read is never found: a transcript id of anyone else's (or none)
 * is a 404 like an unknown one, a follow of another account too. Nothing selected is a 404; more than
 * EXPORT_MAX_NOTES is a 413, both before any transcript is read.
 */
export async function selectEntries(accountId: string, request: ExportRequest): Promise<Selection> {
  const max = env().EXPORT_MAX_NOTES;
  const base: Prisma.TranscriptionWhereInput = { userId: accountId, state: "done", transcriptId: { not: null } };
  let where = base;
  let single = false;
  if (request.ids) {
    const ids = [...new Set(request.ids)];
    where = { ...base, transcriptId: { in: ids } };
    const found = await distinctTranscripts(where);
    if (found < ids.length)
      throw errors.notFound(
        ids.length === 1
          ? "No transcript with this id in your history."
          : `${ids.length - found} of these ids are not transcripts in your history.`,
      );
    single = ids.length === 1;
  } else if (request.history) {
    const { platform, q } = request.history;
    where = {
      ...base,
      ...(platform ? { platform } : {}),
      ...(q ? { searchText: { contains: q.toLowerCase() } } : {}),
    };
  } else if (request.search) {
    where = { ...base, transcriptId: { in: await searchedTranscripts(accountId, request.search, max) } };
  } else if (request.follow_id) {
    where = { ...base, transcriptId: { in: await followedTranscripts(accountId, request.follow_id, max) } };
  }
  const count = await distinctTranscripts(where);
  if (count > max) throw tooLarge(count, max);
  if (count === 0) throw errors.notFound("Nothing to export: the selection holds no finished transcript.");
  return { where, count, single };
}

function tooLarge(count: number | string, max: number): ApiError {
  return new ApiError(
    "export_too_large",
    `The selection holds ${count} transcripts; one export holds at most ${max}. Export it in parts (a platform or a search at a time).`,
  );
}

/** How many transcripts the entries hold (two entries, `auto` and the language heard, may hold one). */
async function distinctTranscripts(where: Prisma.TranscriptionWhereInput): Promise<number> {
  const db = await getDb();
  const groups = await db.transcription.groupBy({ by: ["transcriptId"], where });
  return groups.length;
}

/** The transcripts a search of the library finds moments in, most relevant first, from every page it answers. */
async function searchedTranscripts(
  accountId: string,
  search: NonNullable<ExportRequest["search"]>,
  max: number,
): Promise<string[]> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (let read = 0; read < SEARCH_MAX_OFFSET; read += SEARCH_MAX_PAGE) {
    const query: SearchQuery = { ...search, limit: SEARCH_MAX_PAGE, prefix: false, cursor };
    const page = await searchLibrary(accountId, query);
    for (const moment of page.results) ids.add(moment.transcript_id);
    if (ids.size > max) throw tooLarge(`more than ${max}`, max);
    cursor = page.next_cursor;
    if (cursor === null) break;
  }
  if (ids.size === 0) throw errors.notFound("Nothing to export: the search finds no moment in your library.");
  return [...ids];
}

/** The transcripts of a followed show's items; a follow of another account is a 404 like an unknown one. */
async function followedTranscripts(accountId: string, followId: string, max: number): Promise<string[]> {
  const db = await getDb();
  const follow = await db.follow.findFirst({ where: { id: followId, userId: accountId }, select: { id: true } });
  if (!follow) throw errors.notFound("No followed show with this id.");
  const items = await db.followItem.findMany({
    where: { followId, transcriptId: { not: null } },
    select: { transcriptId: true },
    distinct: ["transcriptId"],
    take: max + 1,
  });
  if (items.length > max) throw tooLarge(`more than ${max}`, max);
  return items.map((item) => item.transcriptId!);
}
