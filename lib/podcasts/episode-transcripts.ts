import { createHash } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { sniffFormat, type CaptionFormat, type Dropped } from "@/lib/captions/parse";
import { parseCaptionsOffThreadCounted } from "@/lib/captions/parse-off-thread";
import { normalizeSegments, type Segment } from "@/lib/formats";
import type { Outbound } from "@/lib/http/outbound";
import { parseSourceUrl } from "@/lib/sources";
import type { FeedEpisode, FeedTranscript } from "@/lib/podcasts/parse-feed";
import { log } from "@/lib/observability/logger";

// Transcripts that podcast feeds publish (Podcasting 2.0 `podcast:transcript`): remembered per user when
// they resolve or import a feed, and used by POST /v1/transcript for that episode's audio URL instead of
// speech recognition (200 at once, source `captions`; lib/transcripts/published-transcript.ts stores them).

/**
 * Timed formats by declared media type, best first. text/plain has no times: remembered only when an episode
 * publishes nothing timed, never used instead of recognition, only for the names it gives (fetchPublishedText),
 * unless the file is in fact WebVTT or SRT (timedFormatOfText).
 */
const FORMATS: [RegExp, CaptionFormat][] = [
  [/^application\/(json|x-json)$/, "podcast-json"],
  [/^text\/vtt$/, "vtt"],
  [/^(application\/(x-)?subrip|application\/srt|text\/srt|text\/x-srt)$/, "podcast-srt"],
  [/^text\/html$/, "podcast-html"],
];

const MAX_TRANSCRIPT_BYTES = 10 * 1024 * 1024;

function formatOf(type: string): { format: CaptionFormat; rank: number } | null {
  const index = FORMATS.findIndex(([pattern]) => pattern.test(type));
  return index < 0 ? null : { format: FORMATS[index]![1], rank: index };
}

/** A text transcript: plain, or Markdown (`**Name:**` labels; read as text, lib/captions/parse/text-turns.ts). */
const PLAIN_TEXT = /^text\/(plain|markdown|x-markdown)$/;

/** The episode's best timed transcript, else its text/plain one, or null. */
export function bestTranscript(transcripts: readonly FeedTranscript[]): FeedTranscript | null {
  let best: { t: FeedTranscript; rank: number } | null = null;
  for (const t of transcripts) {
    const format = formatOf(t.type);
    if (format && (!best || format.rank < best.rank)) best = { t, rank: format.rank };
  }
  return best?.t ?? transcripts.find((t) => PLAIN_TEXT.test(t.type)) ?? null;
}

export function isPlainText(published: Pick<PublishedTranscript, "type">): boolean {
  return PLAIN_TEXT.test(published.type);
}

/**
 * The timed format a text/plain file is in fact written in (the caption parser's sniffing), or null for plain text.
 * Hosts and tools serve WebVTT and SRT as .txt / text/plain; such a file has times and names like any other.
 */
export function timedFormatOfText(body: Uint8Array): CaptionFormat | null {
  const sniffed = sniffFormat(new TextDecoder().decode(body.subarray(0, 1024)));
  return sniffed === "srt" ? "podcast-srt" : sniffed;
}

/**
 * Episodes read between two turns of the event loop: a page holds up to thousands, and recognising each
 * one's audio URL (parseSourceUrl) in one go holds the loop for as long as the whole page takes.
 */
export const EPISODES_PER_TURN = 250;

/**
 * Records, for the user, each episode's best transcript (episodes without one are left alone), with the episode's
 * and the show's names (`show`: the feed's title).
 */
export async function rememberEpisodeTranscripts(
  userId: string,
  episodes: readonly FeedEpisode[],
  options: { allowPrivateFor?: (host: string) => boolean; show?: string | null } = {},
): Promise<void> {
  const rows: Prisma.PodcastEpisodeTranscriptUncheckedCreateInput[] = [];
  for (let at = 0; at < episodes.length; at += EPISODES_PER_TURN) {
    if (at > 0) await setImmediate();
    for (const episode of episodes.slice(at, at + EPISODES_PER_TURN)) {
      const transcript = bestTranscript(episode.transcripts);
      if (!transcript) continue;
      const source = parseSourceUrl(episode.audioUrl, { allowPrivateFor: options.allowPrivateFor });
      if (source?.platform !== "podcast") continue;
      rows.push({
        userId,
        videoId: source.videoId,
        audioUrl: source.canonicalUrl,
        transcriptUrl: transcript.url,
        type: transcript.type,
        language: transcript.language,
        title: episode.title.trim().slice(0, 500) || null,
        show: options.show?.trim().slice(0, 500) || null,
      });
    }
  }
  if (rows.length === 0) return;
  const db = await getDb();
  for (const row of rows) {
    const { userId: u, videoId, ...data } = row;
    await db.podcastEpisodeTranscript.upsert({
      where: { userId_videoId: { userId: u, videoId } },
      create: row,
      update: data,
    });
  }
}

/** Which stored transcript came from which published file: a changed transcript URL is fetched again. */
function captionKindFor(transcriptUrl: string): string {
  return `publisher:${createHash("sha256").update(transcriptUrl).digest("hex").slice(0, 16)}`;
}

function sameLanguage(published: string | null, requested: string): boolean {
  if (!published) return true;
  return published.toLowerCase().split(/[-_]/)[0] === requested.toLowerCase().split(/[-_]/)[0];
}

/** The transcript file the episode's feed publishes, as this user last saw that feed. */
export interface PublishedTranscript {
  transcriptUrl: string;
  /** Its declared media type. */
  type: string;
  /** Stored as the transcript's captionKind: which published file it came from. */
  captionKind: string;
  /** What the feed calls the episode, and the show's name, as the user last saw that feed. */
  title: string | null;
  show: string | null;
}

/** The transcript the episode's feed publishes in `lang`, when this user resolved or imported that feed. */
export async function findPublishedTranscript(
  userId: string,
  videoId: string,
  lang: string,
): Promise<PublishedTranscript | null> {
  const db = await getDb();
  const published = await db.podcastEpisodeTranscript.findUnique({ where: { userId_videoId: { userId, videoId } } });
  if (!published || !sameLanguage(published.language, lang)) return null;
  return {
    transcriptUrl: published.transcriptUrl,
    type: published.type,
    captionKind: captionKindFor(published.transcriptUrl),
    title: published.title,
    show: published.show,
  };
}

/** What a publisher's file lost in reading, in a sentence for wherever the transcript is shown. */
export function droppedNote(dropped: Dropped): string {
  const n = (count: number, one: string, many: string) =>
    `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
  return (
    `The publisher's transcript file has ${n(dropped.cues, "passage", "passages")} (${n(dropped.words, "word", "words")}) ` +
    "that could not be read, their times not being times: they are missing here."
  );
}

/**
 * The published file's segments, and a note when the file held passages that could not be read (droppedNote);
 * null when it is not in a timed format we read (a text/plain file is looked into: timedFormatOfText), or
 * cannot be fetched or read (speech recognition then takes over).
 */
export async function fetchPublishedSegments(
  published: Pick<PublishedTranscript, "transcriptUrl" | "type">,
  deps: { outbound: Outbound },
): Promise<{ segments: Segment[]; note: string | null } | null> {
  const declared = formatOf(published.type)?.format;
  if (!declared && !isPlainText(published)) return null;
  try {
    const response = await deps.outbound.safeFetchBuffer(published.transcriptUrl, { maxBytes: MAX_TRANSCRIPT_BYTES });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const format = declared ?? timedFormatOfText(response.body);
    if (!format) return null;
    const parsed = await parseCaptionsOffThreadCounted(response.body, format, "manual");
    const segments = normalizeSegments(parsed.segments);
    if (segments.length === 0) throw new Error("no segments");
    return { segments, note: parsed.dropped ? droppedNote(parsed.dropped) : null };
  } catch (error) {
    log.warn(
      { transcriptUrl: published.transcriptUrl, err: error instanceof Error ? error.message : String(error) },
      "a podcast's published transcript could not be used",
    );
    return null;
  }
}

/** The published text/plain transcript's text; null when it is not one, or cannot be fetched (the log says why). */
export async function fetchPublishedText(
  published: Pick<PublishedTranscript, "transcriptUrl" | "type">,
  deps: { outbound: Outbound },
): Promise<string | null> {
  if (!isPlainText(published)) return null;
  try {
    const response = await deps.outbound.safeFetchBuffer(published.transcriptUrl, { maxBytes: MAX_TRANSCRIPT_BYTES });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new TextDecoder().decode(response.body);
  } catch (error) {
    log.warn(
      { transcriptUrl: published.transcriptUrl, err: error instanceof Error ? error.message : String(error) },
      "a podcast's published text transcript could not be fetched",
    );
    return null;
  }
}
