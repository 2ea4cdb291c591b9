import { env } from "@/lib/env";
import type { PodcastTranscriptLink } from "@/lib/publishing/schemas";

/**
 * The files a podcast feed links to with `<podcast:transcript>` (Podcasting 2.0), by extension: each one's
 * MIME type as the tag names it and its `rel`. The timed ones are captions; HTML is a transcript to read
 * (the format calls it low-fidelity), so it carries no `rel`.
 */
export const PODCAST_TRANSCRIPT_FILES = {
  vtt: { type: "text/vtt", rel: "captions" },
  srt: { type: "application/x-subrip", rel: "captions" },
  json: { type: "application/json", rel: "captions" },
  html: { type: "text/html", rel: null },
} as const satisfies Record<string, { type: string; rel: PodcastTranscriptLink["rel"] }>;

export type PodcastTranscriptKind = keyof typeof PODCAST_TRANSCRIPT_FILES;

export const PODCAST_TRANSCRIPT_KINDS = Object.keys(PODCAST_TRANSCRIPT_FILES) as PodcastTranscriptKind[];

/** The file's path: the slug is kept for good, so the URL stays while the text behind it may be corrected. */
export function podcastTranscriptPath(slug: string, kind: PodcastTranscriptKind): string {
  return `/v1/public/${slug}/transcript.${kind}`;
}

/** Every file of a published transcript, with absolute URLs on APP_URL. */
export function podcastTranscriptLinks(slug: string, language: string): PodcastTranscriptLink[] {
  return PODCAST_TRANSCRIPT_KINDS.map((kind) => ({
    url: new URL(podcastTranscriptPath(slug, kind), env().APP_URL).toString(),
    type: PODCAST_TRANSCRIPT_FILES[kind].type,
    language,
    rel: PODCAST_TRANSCRIPT_FILES[kind].rel,
  }));
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const attribute = (value: string) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** The `<podcast:transcript …/>` element for a feed's `<item>`. */
export function podcastTranscriptTag(link: PodcastTranscriptLink): string {
  const rel = link.rel ? ` rel="${attribute(link.rel)}"` : "";
  return `<podcast:transcript url="${attribute(link.url)}" type="${attribute(link.type)}" language="${attribute(link.language)}"${rel} />`;
}
