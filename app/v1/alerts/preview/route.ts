import { withApi } from "@/lib/rest/with-api";
import { previewNewAlertEndpoint } from "@/lib/alerts/endpoints";
import { previewNewAlert } from "@/lib/alerts/preview";

export const POST = withApi(previewNewAlertEndpoint, ({ principal, body }) => previewNewAlert(principal, body));
