import { withApi } from "@/lib/rest/with-api";
import { createWebhookEndpoint, listWebhooksEndpoint } from "@/lib/webhooks/endpoints";
import { createWebhookEndpoint as createEndpoint } from "@/lib/webhooks/create-endpoint";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";

export const GET = withApi(listWebhooksEndpoint, ({ principal }) => listWebhookEndpoints(principal.userId));
export const POST = withApi(createWebhookEndpoint, ({ principal, body }) => createEndpoint(principal, body));
