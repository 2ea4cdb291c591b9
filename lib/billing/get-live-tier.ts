import { getDb } from "@/lib/db/client";
import type { Tier } from "@/lib/generated/prisma/client";

/** The tier the user is on right now; everyone without a subscription row is free. */
export async function getLiveTier(userId: string): Promise<Tier> {
  const db = await getDb();
  const subscription = await db.subscription.findUnique({ where: { userId }, select: { tier: true } });
  return subscription?.tier ?? "free";
}
