import { withApi } from "@/lib/rest/with-api";
import { reconcileSubscriptionEndpoint } from "@/lib/billing/endpoints";
import { reconcileSubscription } from "@/lib/billing/manage-subscription";

export const POST = withApi(reconcileSubscriptionEndpoint, ({ principal }) => reconcileSubscription(principal.userId));
