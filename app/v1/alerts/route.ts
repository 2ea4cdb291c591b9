import { withApi } from "@/lib/rest/with-api";
import { createAlertEndpoint, listAlertsEndpoint } from "@/lib/alerts/endpoints";
import { createAlert, listAlerts } from "@/lib/alerts/manage-alerts";

export const POST = withApi(createAlertEndpoint, ({ principal, body }) => createAlert(principal, body));
export const GET = withApi(listAlertsEndpoint, ({ principal }) => listAlerts(principal.userId));
