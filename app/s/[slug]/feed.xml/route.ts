import { corsPreflight } from "@/lib/http/cors";
import { withApi } from "@/lib/rest/with-api";
import { showFeedEndpoint } from "@/lib/publishing/endpoints";
import { showFeedResponse } from "@/lib/publishing/show-feed";

export const GET = withApi(showFeedEndpoint, ({ request, params }) => showFeedResponse(request, params.slug));
export const OPTIONS = corsPreflight;
