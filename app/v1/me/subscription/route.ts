import { withApi } from "@/lib/rest/with-api";
import { getSubscriptionEndpoint } from "@/lib/usage/endpoints";
import { getSubscription } from "@/lib/usage/get-subscription";

export const GET = withApi(getSubscriptionEndpoint, ({ principal }) => getSubscription(principal.userId));
