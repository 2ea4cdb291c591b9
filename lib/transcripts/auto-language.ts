import { getDb } from "@/lib/db/client";
import type { ParsedSource } from "@/lib/sources";
import type { StoredTranscript } from "@/lib/transcripts/store-transcript";

/**
 * `lang: "auto"`: the transcript this user's earlier auto-detected request of the source produced (their
 * history entry under "auto" points at it), whatever language was heard; null when there is none yet or it
 * was recognised with another vocabulary. Asking again is then free, as for any entry in the history.
 */
export async function findAutoTranscript(
  userId: string,
  source: Pick<ParsedSource, "platform" | "videoId">,
  variant: string,
): Promise<StoredTranscript | null> {
  const db = await getDb();
  const entry = await db.transcription.findUnique({
    where: {
      userId_platform_videoId_lang: { userId, platform: source.platform, videoId: source.videoId, lang: "auto" },
    },
    select: { state: true, transcript: true },
  });
  if (entry?.state !== "done" || !entry.transcript || entry.transcript.variant !== variant) return null;
  return { transcript: entry.transcript, inHistory: true };
}
