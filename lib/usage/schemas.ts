import { z } from "zod";

/** A plan's tier, as the API names it. */
export const tierSchema = z.enum(["free", "pro", "ultra"]);

export const subscriptionResponseSchema = z
  .object({
    tier: tierSchema,
    limit_seconds: z
      .int()
      .describe("allowance in seconds for the current period; 2147483647 when `unlimited` (no limit on this server)"),
    used_seconds: z.int(),
    cancel_at_period_end: z.boolean().default(false),
    current_period_end: z.string().nullable(),
    pending_tier: tierSchema.nullable(),
    pending_change_at: z.string().nullable(),
    payment_state: z.string().nullable(),
    unlimited: z
      .boolean()
      .default(false)
      .describe(
        "true when no allowance applies on this server (billing off and no FREE/PRO/ULTRA_ALLOWANCE_SECONDS set)",
      ),
  })
  .meta({ id: "SubscriptionResponse" });

export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;
