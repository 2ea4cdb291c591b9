import { withApi } from "@/lib/rest/with-api";
import { podcastTranscriptVttEndpoint } from "@/lib/publishing/endpoints";
import { podcastTranscriptResponse } from "@/lib/publishing/podcast-transcripts";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(podcastTranscriptVttEndpoint, ({ request, params }) =>
  podcastTranscriptResponse(request, params.slug, "vtt"),
);

export const OPTIONS = corsPreflight;
