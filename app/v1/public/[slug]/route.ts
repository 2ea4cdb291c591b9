import { withApi } from "@/lib/rest/with-api";
import { publicTranscriptEndpoint } from "@/lib/publishing/endpoints";
import { publicTranscriptResponse } from "@/lib/publishing/public-transcript";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(publicTranscriptEndpoint, ({ request, params }) =>
  publicTranscriptResponse(request, params.slug),
);

export const OPTIONS = corsPreflight;
