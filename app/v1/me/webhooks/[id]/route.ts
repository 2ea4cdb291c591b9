import { withApi } from "@/lib/rest/with-api";
import { deleteWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { deleteWebhookEndpoint as deleteEndpoint } from "@/lib/webhooks/delete-endpoint";

export const DELETE = withApi(deleteWebhookEndpoint, ({ principal, params }) =>
  deleteEndpoint(principal.userId, params.id),
);
