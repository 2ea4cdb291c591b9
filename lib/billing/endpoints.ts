import { defineEndpoint } from "@/lib/http/endpoint";
import { plansResponseSchema } from "@/lib/billing/schemas";

const tag = "Billing";

export const getPlansEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/plans",
  tag,
  summary: "Plans and active discounts",
  description:
    "Live prices of each tier and the active coupons and promotion codes from Stripe, cached in-process for a few minutes. `source` is `static` (settings' prices, no discounts) when billing is off or Stripe does not answer in time.",
  auth: "none",
  response: plansResponseSchema,
});
