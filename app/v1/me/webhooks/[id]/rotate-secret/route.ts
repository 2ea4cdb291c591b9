import { withApi } from "@/lib/rest/with-api";
import { rotateWebhookSecretEndpoint } from "@/lib/webhooks/endpoints";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-secret";

export const POST = withApi(rotateWebhookSecretEndpoint, ({ principal, params }) =>
  rotateWebhookSecret(principal, params.id),
);
