import { withApi } from "@/lib/rest/with-api";
import { rotateAlertFeedEndpoint } from "@/lib/alerts/endpoints";
import { rotateFeed } from "@/lib/alerts/manage-alerts";

export const POST = withApi(rotateAlertFeedEndpoint, ({ principal, params }) => rotateFeed(principal, params.id));
