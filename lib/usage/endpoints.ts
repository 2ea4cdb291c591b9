import { defineEndpoint } from "@/lib/http/endpoint";
import { subscriptionResponseSchema } from "@/lib/usage/schemas";

export const getSubscriptionEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/subscription",
  tag: "Billing",
  summary: "The caller's tier, allowance and usage for the current period",
  auth: "use",
  rateLimit: "account",
  response: subscriptionResponseSchema,
});
