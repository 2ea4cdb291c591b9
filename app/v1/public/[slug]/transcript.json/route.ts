import { withApi } from "@/lib/rest/with-api";
import { podcastTranscriptJsonEndpoint } from "@/lib/publishing/endpoints";
import { podcastTranscriptResponse } from "@/lib/publishing/podcast-transcripts";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(podcastTranscriptJsonEndpoint, ({ request, params }) =>
  podcastTranscriptResponse(request, params.slug, "json"),
);

export const OPTIONS = corsPreflight;
