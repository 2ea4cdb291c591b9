import { withApi } from "@/lib/rest/with-api";
import { createCheckout } from "@/lib/billing/checkout";
import { checkoutEndpoint } from "@/lib/billing/endpoints";

export const POST = withApi(checkoutEndpoint, ({ principal, body }) => createCheckout(principal.userId, body.tier));
