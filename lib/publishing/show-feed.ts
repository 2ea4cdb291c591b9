import { createHash } from "node:crypto";
import { XMLBuilder } from "fast-xml-parser";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { podcastTranscriptLinks } from "@/lib/publishing/podcast-links";
import { PUBLIC_CACHE_CONTROL, notModified } from "@/lib/publishing/public-transcript";
import { publicPageUrl } from "@/lib/publishing/serializers";
import { showFeedPath, showPagePath } from "@/lib/publishing/show-links";
import { findShow, type Show, type ShowEpisode } from "@/lib/publishing/show-page";

// /s/{slug}/feed.xml: a followed show's transcribed episodes as an RSS 2.0 feed with the Podcasting 2.0
// namespace, so a podcaster without a feed of their own (or whose host cannot add tags) can hand podcast apps
// one that carries transcripts: each item keeps the publisher's guid, date and audio, and names every public
// transcript file of its episode with `<podcast:transcript>`.

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: true,
});

// What XML 1.0 cannot carry at all, even escaped: C0 controls but tab and line ends, lone surrogates, U+FFFE/F.
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const xmlText = (value: string) => value.replace(NOT_XML, "\ufffd");

/** The enclosure's media type, from the audio URL's extension (feeds give it; a follow does not keep it). */
const AUDIO_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
};

function audioType(url: string): string {
  let extension = "";
  try {
    extension = new URL(url).pathname.split(".").pop()?.toLowerCase() ?? "";
  } catch {
    // not a URL: the default below
  }
  return AUDIO_TYPES[extension] ?? "audio/mpeg";
}

function item(episode: ShowEpisode) {
  const page = publicPageUrl(episode.slug);
  return {
    title: xmlText(episode.title),
    link: page,
    guid: { "#text": xmlText(episode.guid), "@_isPermaLink": "false" },
    pubDate: episode.date.toUTCString(),
    description: `Transcript: ${page}`,
    // An episode's audio as its publisher serves it, with the file's length as its feed gives it (RSS's 0 for
    // "unknown" where it gives none); a video (a followed channel) has no enclosure, only its page.
    ...(episode.kind === "audio"
      ? {
          enclosure: {
            "@_url": xmlText(episode.sourceUrl),
            "@_length": String(episode.audioBytes ?? 0),
            "@_type": audioType(episode.sourceUrl),
          },
        }
      : { comments: xmlText(episode.sourceUrl) }),
    "podcast:transcript": podcastTranscriptLinks(episode.slug, episode.lang).map((link) => ({
      "@_url": link.url,
      "@_type": link.type,
      "@_language": link.language,
      ...(link.rel ? { "@_rel": link.rel } : {}),
    })),
  };
}

/** The show's feed as XML text. */
export function renderShowFeed(show: Show): string {
  const base = env().APP_URL;
  const page = new URL(showPagePath(show.slug), base).toString();
  const title = xmlText(show.title);
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:podcast": "https://podcastindex.org/namespace/1.0",
      "@_xmlns:atom": "http://www.w3.org/2005/Atom",
      channel: {
        title,
        link: page,
        description: `Transcripts of ${title}: each episode with its transcript files.`,
        ...(show.episodes[0] ? { language: show.episodes[0].lang } : {}),
        generator: "Verbatim",
        "atom:link": {
          "@_href": new URL(showFeedPath(show.slug), base).toString(),
          "@_rel": "self",
          "@_type": "application/rss+xml",
        },
        item: show.episodes.map(item),
      },
    },
  }) as string;
}

/**
 * GET /s/{slug}/feed.xml. The ETag is the text's digest (a feed is small: its episodes' titles and links, no
 * transcript text), so it changes with any publish, unpublish or rename and a matching If-None-Match gets 304.
 */
export async function showFeedResponse(request: Request, slug: string): Promise<Response> {
  const show = await findShow(slug);
  if (!show) throw errors.notFound("No show with a published episode has this slug.");
  const body = renderShowFeed(show);
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  const headers = { ETag: etag, "Cache-Control": PUBLIC_CACHE_CONTROL, Vary: "Accept-Encoding" };
  // Only the ETag: a feed has no one time it last changed (an unpublished episode leaves no date behind).
  if (request.headers.has("if-none-match") && notModified(request, etag, new Date(0)))
    return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/rss+xml; charset=utf-8" } });
}
