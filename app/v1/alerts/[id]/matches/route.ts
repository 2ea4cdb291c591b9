import { withApi } from "@/lib/rest/with-api";
import { listAlertMatchesEndpoint } from "@/lib/alerts/endpoints";
import { listMatches } from "@/lib/alerts/manage-alerts";

export const GET = withApi(listAlertMatchesEndpoint, ({ principal, params, query }) =>
  listMatches(principal.userId, params.id, query.unread),
);
