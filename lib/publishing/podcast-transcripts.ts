import { renderPodcastHtml, renderPodcastJson, renderSrt, renderVtt } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import { transcriptMeta, transcriptSegments } from "@/lib/transcripts/read";
import { PODCAST_TRANSCRIPT_FILES, type PodcastTranscriptKind } from "@/lib/publishing/podcast-links";
import {
  PUBLIC_CACHE_CONTROL,
  findPublished,
  notModified,
  publishedVersion,
  validators,
  type Version,
} from "@/lib/publishing/public-transcript";
import type { PublishedRow } from "@/lib/publishing/serializers";

/** A published transcript's file of one kind: what the public sees (the publisher's correction, if any). */
export function renderPodcastTranscript(kind: PodcastTranscriptKind, row: PublishedRow): string {
  const segments = transcriptSegments(row.transcript);
  switch (kind) {
    case "vtt":
      return renderVtt(segments);
    case "srt":
      return renderSrt(segments);
    case "json":
      return renderPodcastJson(segments);
    case "html":
      return renderPodcastHtml(segments, transcriptMeta(row.transcript));
  }
}

/**
 * GET /v1/public/{slug}/transcript.{vtt,srt,json,html}: the file a podcast feed links to. Its ETag names
 * the version (publication, transcript and the publisher's newest correction) and the kind, so it changes
 * whenever the text does while the URL stays; a matching If-None-Match (or If-Modified-Since) gets 304.
 * Shown inline (no attachment): players fetch it, and the HTML one is a page to read.
 */
export async function podcastTranscriptResponse(
  request: Request,
  slug: string,
  kind: PodcastTranscriptKind,
): Promise<Response> {
  // A revalidation costs the one small version query; only a changed file loads the segments.
  const version = await publishedVersion(slug);
  if (!version) throw notPublished();
  const cached = fileHeaders(version, kind);
  if (notModified(request, cached.ETag, new Date(cached["Last-Modified"])))
    return new Response(null, { status: 304, headers: cached });
  const row = await findPublished(slug);
  if (!row) throw notPublished();
  const headers = {
    ...fileHeaders({ id: row.id, publishedAt: row.publishedAt, fetchedAt: row.transcript.fetchedAt }, kind),
    "Content-Language": row.transcript.lang,
    "Content-Type": `${PODCAST_TRANSCRIPT_FILES[kind].type}; charset=utf-8`,
  };
  return new Response(renderPodcastTranscript(kind, row), { headers });
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
