import { withApi } from "@/lib/rest/with-api";
import { cancelSubscriptionEndpoint } from "@/lib/billing/endpoints";
import { cancelSubscription } from "@/lib/billing/manage-subscription";

export const POST = withApi(cancelSubscriptionEndpoint, ({ principal }) => cancelSubscription(principal.userId));
