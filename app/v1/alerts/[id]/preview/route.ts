import { withApi } from "@/lib/rest/with-api";
import { previewAlertEndpoint } from "@/lib/alerts/endpoints";
import { previewAlert } from "@/lib/alerts/preview";

export const POST = withApi(previewAlertEndpoint, ({ principal, params }) => previewAlert(principal.userId, params.id));
