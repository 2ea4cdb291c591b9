import { getDb } from "@/lib/db/client";
import { hotQuery } from "@/lib/db/hot-sql";
import type { Prisma, Transcript } from "@/lib/generated/prisma/client";
import type { ParsedSource } from "@/lib/sources";
import { inHistorySql } from "@/lib/transcripts/history-queries";

// The shared transcript store: one row per (platform, video, language, origin), whoever produced it
// (platform captions, a podcast's published transcript, speech recognition). Every writer goes through
// storeTranscript, every reader through findStoredTranscript.

export type TranscriptOrigin = "captions" | "asr";

export interface TranscriptKey {
  platform: ParsedSource["platform"];
  videoId: string;
  lang: string;
  origin: TranscriptOrigin;
  /** "" (the default) for the shared entry; a vocabulary's key for speech recognised with one (lib/asr/vocabulary.ts). */
  variant?: string;
}

/** What a writer sets; fields it leaves out keep their stored value on an update. */
export type TranscriptFields = Omit<Prisma.TranscriptCreateInput, keyof TranscriptKey>;

export interface StoredTranscript {
  transcript: Transcript;
  /** Whether the user already has it in their history (then asking again is free). */
  inHistory: boolean;
}

/** Creates or replaces the transcript under `key` (`update`: what replaces an existing one, default `fields`). */
export async function storeTranscript(
  key: TranscriptKey,
  fields: TranscriptFields,
  update: TranscriptFields = fields,
): Promise<Transcript> {
  const db = await getDb();
  const unique = { ...key, variant: key.variant ?? "" };
  return db.transcript.upsert({
    where: { platform_videoId_lang_origin_variant: unique },
    create: { ...unique, ...fields },
    update,
  });
}

/**
 * The stored transcript and whether the user has it, in one round trip: this is the hot path for
 * repeat requests, so it is one prepared SQL statement (lib/db/hot-sql.ts) rather than two Prisma queries.
 */
export async function findStoredTranscript(
  userId: string,
  source: Pick<ParsedSource, "platform" | "videoId">,
  lang: string,
  origin: TranscriptOrigin,
  variant = "",
): Promise<StoredTranscript | null> {
  const rows = await hotQuery<Transcript & { inHistory: boolean }>(
    "stored-transcript",
    // The columns by name: a prepared statement's result columns may not change under it (a migration).
    `SELECT t."id", t."platform", t."videoId", t."lang", t."source" AS "origin", t."captionKind", t."title", t."sourceUrl",
       t."durationSeconds", t."segments", t."servedBy", t."channel", t."publishedAt", t."chapters", t."sourceNote", t."fetchedAt",
       t."createdAt", t."variant", ${inHistorySql("$1", "t")} AS "inHistory"
     FROM "Transcript" t
     WHERE t."platform" = $2 AND t."videoId" = $3 AND t."lang" = $4 AND t."source" = $5::"TranscriptSource"
       AND t."variant" = $6`,
    [userId, source.platform, source.videoId, lang, origin, variant],
  );
  if (rows.length === 0) return null;
  const { inHistory, ...transcript } = rows[0];
  return { transcript, inHistory };
}
