import { withApi } from "@/lib/rest/with-api";
import { testWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";

export const POST = withApi(testWebhookEndpoint, ({ principal, params }) => sendTestEvent(principal.userId, params.id));
