import { withApi } from "@/lib/rest/with-api";
import { resumeSubscriptionEndpoint } from "@/lib/billing/endpoints";
import { resumeSubscription } from "@/lib/billing/manage-subscription";

export const POST = withApi(resumeSubscriptionEndpoint, ({ principal }) => resumeSubscription(principal.userId));
