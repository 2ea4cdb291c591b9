import { withApi } from "@/lib/rest/with-api";
import { podcastTranscriptHtmlEndpoint } from "@/lib/publishing/endpoints";
import { podcastTranscriptResponse } from "@/lib/publishing/podcast-transcripts";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(podcastTranscriptHtmlEndpoint, ({ request, params }) =>
  podcastTranscriptResponse(request, params.slug, "html"),
);

export const OPTIONS = corsPreflight;
