import { errors } from "@/lib/http/errors";
import { PODCAST_TRANSCRIPT_FILES, type PodcastTranscriptKind } from "@/lib/publishing/podcast-links";
import { publicFile } from "@/lib/publishing/public-files";
import {
  PUBLIC_CACHE_CONTROL,
  notModified,
  publishedVersion,
  validators,
  type Version,
} from "@/lib/publishing/public-transcript";

/**
 * GET /v1/public/{slug}/transcript.{vtt,srt,json,html}: the file a podcast feed links to. Its ETag names
 * the version (publication, transcript and the publisher's newest correction) and the kind, so it changes
 * whenever the text does while the URL stays; a matching If-None-Match (or If-Modified-Since) gets 304 from
 * the version query alone. The file is rendered once per version, off the event loop when it is long, and
 * kept (public-files.ts). Shown inline (no attachment): players fetch it, and the HTML one is a page to read.
 */
export async function podcastTranscriptResponse(
  request: Request,
  slug: string,
  kind: PodcastTranscriptKind,
): Promise<Response> {
  const version = await publishedVersion(slug);
  if (!version) throw notPublished();
  const cached = fileHeaders(version, kind);
  if (notModified(request, cached.ETag, new Date(cached["Last-Modified"])))
    return new Response(null, { status: 304, headers: cached });
  const file = await publicFile(slug, { podcast: kind }, version, (v) => fileHeaders(v, kind).ETag);
  const headers = {
    ...fileHeaders(file.version, kind),
    "Content-Language": file.lang,
    "Content-Type": `${PODCAST_TRANSCRIPT_FILES[kind].type}; charset=utf-8`,
  };
  return new Response(file.bytes, { headers });
}

const notPublished = () => errors.notFound("No published transcript has this slug.");

/** The version's validators, the ETag also naming the kind (one URL per kind), and the cache rule. */
function fileHeaders(version: Version, kind: PodcastTranscriptKind) {
  const { etag, lastModified } = validators(version);
  return {
    ETag: etag.replace(/"$/, `.${kind}"`),
    "Last-Modified": lastModified.toUTCString(),
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    Vary: "Accept-Encoding",
  };
}
