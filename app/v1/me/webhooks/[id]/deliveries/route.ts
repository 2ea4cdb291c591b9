import { withApi } from "@/lib/rest/with-api";
import { listWebhookDeliveriesEndpoint } from "@/lib/webhooks/endpoints";
import { listDeliveries } from "@/lib/webhooks/list-deliveries";

export const GET = withApi(listWebhookDeliveriesEndpoint, ({ principal, params }) =>
  listDeliveries(principal.userId, params.id),
);
