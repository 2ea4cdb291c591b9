import { withApi } from "@/lib/rest/with-api";
import { redeliverWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { redeliver } from "@/lib/webhooks/redeliver";

export const POST = withApi(redeliverWebhookEndpoint, ({ principal, params }) =>
  redeliver(principal.userId, params.id, params.delivery_id),
);
