import { withApi } from "@/lib/rest/with-api";
import { markAlertReadEndpoint } from "@/lib/alerts/endpoints";
import { markRead } from "@/lib/alerts/manage-alerts";

export const POST = withApi(markAlertReadEndpoint, ({ principal, params, body }) =>
  markRead(principal.userId, params.id, body.match_ids),
);
