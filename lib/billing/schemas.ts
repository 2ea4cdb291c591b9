import { z } from "zod";
import { tierSchema } from "@/lib/usage/schemas";

export const planInfoSchema = z
  .object({
    tier: tierSchema,
    amount: z.int().nullable().describe("price per interval in the currency's minor unit (cents); 0 for free"),
    currency: z.string().nullable().describe("ISO 4217, lower case"),
    interval: z.string().nullable().describe("billing interval: day, week, month or year"),
  })
  .meta({ id: "PlanInfo" });

export const discountInfoSchema = z
  .object({
    name: z.string().nullable(),
    code: z.string().nullable().describe("the promotion code to enter at checkout; null for a coupon without one"),
    type: z.enum(["percent", "amount"]).nullable(),
    basis_points: z.int().nullable().describe("percent off × 100 (2500 = 25 %)"),
    amount: z.int().nullable().describe("amount off in the currency's minor unit"),
    currency: z.string().nullable(),
    product_ids: z
      .array(z.string())
      .default([])
      .describe("billing-provider products it is limited to; empty when unrestricted"),
    tiers: z.array(tierSchema).default([]).describe("the paid tiers it applies to"),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable().describe("last moment it can be redeemed"),
  })
  .meta({ id: "DiscountInfo" });

export const plansResponseSchema = z
  .object({
    plans: z.array(planInfoSchema),
    discounts: z.array(discountInfoSchema),
    source: z
      .enum(["stripe", "static"])
      .describe("`stripe`: live prices; `static`: billing is off or Stripe did not answer"),
  })
  .meta({ id: "PlansResponse" });

export type PlanInfo = z.infer<typeof planInfoSchema>;
export type DiscountInfo = z.infer<typeof discountInfoSchema>;
export type PlansResponse = z.infer<typeof plansResponseSchema>;

export const paidTierSchema = z.enum(["pro", "ultra"]);

export const checkoutRequestSchema = z.object({ tier: paidTierSchema }).meta({ id: "CheckoutRequest" });
export const checkoutResponseSchema = z
  .object({ url: z.string().describe("the Stripe Checkout page to send the browser to") })
  .meta({ id: "CheckoutResponse" });
export const changeTierRequestSchema = z.object({ tier: paidTierSchema }).meta({ id: "ChangeTierRequest" });
export const portalResponseSchema = z
  .object({ url: z.string().describe("short-lived, pre-authenticated link to the Stripe customer portal") })
  .meta({ id: "PortalResponse" });

export const billingWebhookResponseSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(["applied", "duplicate", "ignored", "unknown_customer"]),
  effect: z
    .enum(["subscription.canceled", "subscription.revoked", "subscription.updated", "subscription.resumed"])
    .nullable(),
});
