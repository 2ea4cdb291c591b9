import { withApi } from "@/lib/app/with-api";
import { podcastTranscriptHtmlEndpoint } from "@/lib/publishing/endpoints";
import { podcastTranscriptResponse } from "@/lib/publishing/podcast-transcripts";

export const GET = withApi(podcastTranscriptHtmlEndpoint, ({ request, params }) =>
  podcastTranscriptResponse(request, params.slug, "html"),
);
