import { deepLinkPrefix, markdownUrl } from "@/lib/formats/markdown";
import type { MomentLink } from "@/lib/formats";

/** What a note's links are made from. */
export interface LinkedTranscript {
  id: string;
  platform: string;
  videoId: string;
  sourceUrl: string;
}

/** The dashboard's viewer of a transcript on this server (`appUrl`), with `t` (seconds) when given. */
export function viewerUrl(appUrl: string, transcriptId: string, t?: string): string {
  const url = new URL("/dashboard", appUrl);
  url.searchParams.set("transcript", transcriptId);
  if (t !== undefined) url.searchParams.set("t", t);
  return url.href;
}

/**
 * The link a reader follows to the source: the platform's own page, or for an upload (whose stored source is a
 * storage path, for no one to open) the viewer on this server.
 */
export function sourceLink(transcript: LinkedTranscript, appUrl: string): string {
  if (transcript.platform === "upload" || markdownUrl(transcript.sourceUrl) === null)
    return viewerUrl(appUrl, transcript.id);
  return transcript.sourceUrl.trim();
}

/**
 * Where a paragraph's timestamp opens that moment: the platform's own deep link where it has one (YouTube `&t=…s`,
 * Vimeo `#t=…s`); a podcast's audio file with a media fragment (`#t=…`, which a browser's player seeks to, where a
 * query would be sent to the host and ignored); an upload in the viewer on this server; any other link with `?t=`.
 */
export function noteMomentLink(transcript: LinkedTranscript, appUrl: string): MomentLink | null {
  const deep = deepLinkPrefix(transcript.platform, transcript.videoId);
  if (deep !== null) return { prefix: deep, suffix: "s" };
  const source = sourceLink(transcript, appUrl);
  if (transcript.platform === "upload" || source !== transcript.sourceUrl.trim()) {
    return { prefix: safe(viewerUrl(appUrl, transcript.id, "")), suffix: "" };
  }
  const url = new URL(source);
  url.hash = "";
  if (transcript.platform === "podcast") return { prefix: safe(`${url.href}#t=`), suffix: "" };
  url.searchParams.delete("t");
  const joiner = url.search === "" ? "?" : "&";
  return { prefix: safe(`${url.href}${joiner}t=`), suffix: "" };
}

/** A link prefix made safe as a Markdown link destination (an http(s) URL by construction). */
function safe(prefix: string): string {
  return markdownUrl(prefix) ?? prefix;
}
