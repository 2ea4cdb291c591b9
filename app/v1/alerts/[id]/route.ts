import { withApi } from "@/lib/rest/with-api";
import { deleteAlertEndpoint, getAlertEndpoint, updateAlertEndpoint } from "@/lib/alerts/endpoints";
import { deleteAlert, getAlert, updateAlert } from "@/lib/alerts/manage-alerts";

export const GET = withApi(getAlertEndpoint, ({ principal, params }) => getAlert(principal.userId, params.id));
export const PATCH = withApi(updateAlertEndpoint, ({ principal, params, body }) =>
  updateAlert(principal.userId, params.id, body),
);
export const DELETE = withApi(deleteAlertEndpoint, ({ principal, params }) => deleteAlert(principal.userId, params.id));
