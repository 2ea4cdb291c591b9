import { renderMarkdown, type Segment } from "@/lib/formats";
import { cleanText } from "@/lib/formats/normalize";
import { speakersOf } from "@/lib/formats/speakers";
import { formatShortClock } from "@/lib/formats/time";
import { frontMatter } from "./front-matter";
import { noteMomentLink, sourceLink, viewerUrl } from "./moment-link";

/** What a note is made of: a transcript as its reader sees it, and when it entered their library. */
export interface NoteSource {
  id: string;
  platform: string;
  videoId: string;
  lang: string;
  title: string | null;
  sourceUrl: string;
  durationSeconds: number;
  segments: readonly Segment[];
  channel: string | null;
  /** As the platform or feed gave it: an ISO date or time, `YYYYMMDD` (yt-dlp), or an RFC 2822 date (RSS). */
  publishedAt: string | null;
  chapters: readonly { start: number; title: string }[];
  /** When the reader's library got it (their history entry). */
  transcribedAt: Date | null;
}

/** The title a note shows: the transcript's, else the platform and the source's id. */
export function noteTitle(source: Pick<NoteSource, "title" | "platform" | "videoId">): string {
  const title = cleanText(source.title);
  return title !== "" ? title : `${source.platform} ${source.videoId}`.trim();
}

/**
 * A transcript as a Markdown note that Obsidian, Logseq and other notes apps read as their own: YAML front matter
 * (frontMatter), then the Markdown format's body: the title, the source, chapters as `##` headings and paragraphs
 * opening with a timestamp that links to that moment (noteMomentLink), each speaker named as the source names them.
 * The same transcript gives the same bytes on every export, so a vault or a synced folder sees no change.
 */
export function renderNote(source: NoteSource, appUrl: string): string {
  const title = noteTitle(source);
  const link = sourceLink(source, appUrl);
  const properties = frontMatter({
    title,
    source: link,
    channel: channelOf(source),
    published: publishedDay(source.publishedAt),
    transcribed: source.transcribedAt,
    duration: formatShortClock(Math.max(0, Math.round(source.durationSeconds))),
    durationSeconds: Math.max(0, Math.round(source.durationSeconds)),
    language: source.lang,
    speakers: speakersOf(source.segments),
    tags: ["transcript", source.platform],
    platform: source.platform,
    id: source.id,
    verbatimUrl: viewerUrl(appUrl, source.id),
  });
  const body = renderMarkdown(source.segments, {
    title,
    sourceUrl: link,
    platform: source.platform,
    videoId: source.videoId,
    lang: source.lang,
    chapters: source.chapters,
    momentLink: noteMomentLink(source, appUrl),
  });
  return `${properties}\n${body}`;
}

function channelOf(source: NoteSource): { key: "channel" | "show"; name: string } | null {
  const name = cleanText(source.channel);
  if (name === "") return null;
  return { key: source.platform === "podcast" ? "show" : "channel", name };
}

/** The day a source was published, from what its platform gave; null when it says nothing readable. */
export function publishedDay(value: string | null): Date | null {
  const text = value?.trim() ?? "";
  if (text === "") return null;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  const ms = compact ? Date.UTC(+compact[1]!, +compact[2]! - 1, +compact[3]!) : Date.parse(text);
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return date.getUTCFullYear() >= 1000 && date.getUTCFullYear() <= 9999 ? date : null;
}
