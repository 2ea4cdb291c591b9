import { withApi } from "@/lib/rest/with-api";
import { addShowToAlertEndpoint } from "@/lib/alerts/endpoints";
import { addShowToAlert } from "@/lib/alerts/add-show";

export const POST = withApi(addShowToAlertEndpoint, ({ principal, params, body }) =>
  addShowToAlert(principal, params.id, body),
);
