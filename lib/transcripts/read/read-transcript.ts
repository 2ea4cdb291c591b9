import { getDb } from "@/lib/db/client";
import type { Prisma, Transcript } from "@/lib/generated/prisma/client";
import { errors } from "@/lib/http/errors";

// A transcript is stored once for everyone and never written by a correction: a user's corrections are rows
// of TranscriptRevision (written by lib/edits), and the newest one replaces the segments wherever that user
// meets the transcript. Nobody else sees it, except through its author's public page (which shows what the
// publisher sees).

/** The `revision` that reads the transcript as the source gave it. */
export const ORIGINAL = "original";
/** The `revision` that reads the viewer's current version (their newest revision, or the original). */
export const CURRENT = "current";

/** A transcript row as one user sees it: `edited` when one of their revisions replaced the segments. */
export type TranscriptView = Transcript & { edited?: true; revisionId?: string };

export interface ReadOptions {
  /** ORIGINAL, CURRENT (the default) or the id of one of the viewer's saved revisions. */
  revision?: string;
}

/**
 * Transcript `transcriptId` as `viewerId` sees it: the original, their current correction, or one of their
 * saved revisions. Only a transcript in the viewer's history can be read (anyone else's, or an unknown id:
 * 404), and so can only the viewer's own revisions.
 */
export async function readTranscript(
  viewerId: string,
  transcriptId: string,
  { revision = CURRENT }: ReadOptions = {},
): Promise<TranscriptView> {
  const row = await transcriptInHistory(viewerId, transcriptId);
  if (revision === ORIGINAL) return row;
  if (revision === CURRENT) return asSeenBy(viewerId, row);
  const db = await getDb();
  const saved = await db.transcriptRevision.findFirst({ where: { id: revision, userId: viewerId, transcriptId } });
  if (!saved) throw errors.notFound("No revision with this id for this transcript (older ones are dropped on save).");
  return { ...row, segments: saved.segments as Transcript["segments"], edited: true, revisionId: saved.id };
}

/**
 * A row the caller already holds (a finished job's, a cached one, a publication's), as `viewerId` sees it.
 * The overlaid row's `fetchedAt` is the later of the transcript's and the revision's time, so that every
 * validator built from it (the public page's ETag) changes with each save.
 */
export async function asSeenBy(viewerId: string, row: Transcript): Promise<TranscriptView> {
  const revision = await newestRevision(viewerId, row.id);
  if (!revision) return row;
  return {
    ...row,
    segments: revision.segments as Transcript["segments"],
    fetchedAt: seenAt(row.fetchedAt, revision.createdAt),
    edited: true,
    revisionId: revision.id,
  };
}

/** When a transcript as a reader sees it last changed: the later of its fetch and their newest revision. */
export function seenAt(fetchedAt: Date, revisedAt: Date | null): Date {
  return revisedAt && revisedAt > fetchedAt ? revisedAt : fetchedAt;
}

/**
 * Transcript `transcriptId`'s segments as `viewerId` sees them (their newest revision's, else the transcript's)
 * as JSON text, never parsed here (a public file renders them off the event loop), with that revision's time
 * (null for the transcript's own segments). Null for an unknown transcript.
 */
export async function segmentsTextAsSeenBy(
  viewerId: string,
  transcriptId: string,
): Promise<{ segments: string; revisedAt: Date | null } | null> {
  const db = await getDb();
  for (;;) {
    const newest = await db.transcriptRevision.findFirst({
      where: { userId: viewerId, transcriptId },
      orderBy: NEWEST_FIRST,
      select: { id: true, createdAt: true },
    });
    if (!newest) break;
    const [row] = await db.$queryRaw<{ segments: string }[]>`
      SELECT "segments"::text AS "segments" FROM "TranscriptRevision" WHERE "id" = ${newest.id}`;
    // Gone in between (a newer save pruned it, or the reader reverted): ask again which one is newest.
    if (row) return { segments: row.segments, revisedAt: newest.createdAt };
  }
  const [own] = await db.$queryRaw<{ segments: string }[]>`
    SELECT "segments"::text AS "segments" FROM "Transcript" WHERE "id" = ${transcriptId}`;
  return own ? { segments: own.segments, revisedAt: null } : null;
}

/** The revision a reader sees: their newest by time, and of two saved at the same time the later id. */
const NEWEST_FIRST: Prisma.TranscriptRevisionOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

/** The newest revision of (user, transcript), or null. */
async function newestRevision(userId: string, transcriptId: string) {
  const db = await getDb();
  return db.transcriptRevision.findFirst({ where: { userId, transcriptId }, orderBy: NEWEST_FIRST });
}

async function transcriptInHistory(userId: string, transcriptId: string): Promise<Transcript> {
  const db = await getDb();
  const entry = await db.transcription.findFirst({ where: { userId, transcriptId }, include: { transcript: true } });
  if (!entry?.transcript) throw errors.notFound("No transcript with this id in your history.");
  return entry.transcript;
}
