import { withApi } from "@/lib/rest/with-api";
import { billingWebhookEndpoint } from "@/lib/billing/endpoints";
import { receiveBillingWebhook } from "@/lib/billing/webhook";

export const POST = withApi(billingWebhookEndpoint, ({ request }) => receiveBillingWebhook(request));
