import type { Outbound } from "@/lib/http/outbound";
import type { Transcript } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";
import type { ParsedSource } from "@/lib/sources";
import { fetchPublishedSegments, findPublishedTranscript } from "@/lib/podcasts/episode-transcripts";
import { findStoredTranscript, storeTranscript, type StoredTranscript } from "@/lib/transcripts/store-transcript";
import { nameUntitled } from "@/lib/transcripts/known-title";

/**
 * The transcript the episode's feed publishes (lib/podcasts/episode-transcripts.ts), when this user resolved
 * or imported that feed and it is in `lang`: stored (source `captions`) and returned. Null when there is
 * none, or when it cannot be fetched or read (speech recognition then takes over).
 */
export async function getPublishedTranscript(
  userId: string,
  source: Pick<ParsedSource, "platform" | "videoId" | "canonicalUrl">,
  lang: string,
  deps: { outbound: Outbound },
): Promise<StoredTranscript | null> {
  if (source.platform !== "podcast") return null;
  const published = await findPublishedTranscript(userId, source.videoId, lang);
  if (!published) return null;
  // The publisher's file names no episode: its feed's item does, as the user last saw it.
  const named = async (transcript: Transcript) =>
    nameUntitled(transcript, { title: published.title, channel: published.show });
  const stored = await findStoredTranscript(userId, source, lang, "captions");
  if (stored && stored.transcript.captionKind === published.captionKind)
    return { ...stored, transcript: await named(stored.transcript) };
  const fetched = await fetchPublishedSegments(published, deps);
  if (!fetched) return null;
  const { segments, note } = fetched;
  let transcript: Transcript;
  try {
    transcript = await storeTranscript(
      { platform: source.platform, videoId: source.videoId, lang, origin: "captions" },
      {
        captionKind: published.captionKind,
        title: null,
        sourceUrl: source.canonicalUrl,
        durationSeconds: Math.ceil(segments[segments.length - 1]!.end),
        segments: segments as unknown as object,
        // What the file lost in reading is said wherever the transcript is shown, never lost silently.
        sourceNote: note,
        fetchedAt: new Date(),
      },
    );
  } catch (error) {
    log.warn(
      { transcriptUrl: published.transcriptUrl, err: error instanceof Error ? error.message : String(error) },
      "a podcast's published transcript could not be used",
    );
    return null;
  }
  return { transcript: await named(transcript), inHistory: false };
}
