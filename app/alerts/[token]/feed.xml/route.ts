import { withApi } from "@/lib/rest/with-api";
import { alertFeedEndpoint } from "@/lib/alerts/endpoints";
import { alertFeedResponse } from "@/lib/alerts/feed";

export const GET = withApi(alertFeedEndpoint, ({ request, params }) => alertFeedResponse(request, params.token));
