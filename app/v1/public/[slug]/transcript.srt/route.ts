import { withApi } from "@/lib/rest/with-api";
import { podcastTranscriptSrtEndpoint } from "@/lib/publishing/endpoints";
import { podcastTranscriptResponse } from "@/lib/publishing/podcast-transcripts";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(podcastTranscriptSrtEndpoint, ({ request, params }) =>
  podcastTranscriptResponse(request, params.slug, "srt"),
);

export const OPTIONS = corsPreflight;
