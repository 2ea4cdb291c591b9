import type { Tier } from "@/lib/generated/prisma/client";

// The order of the tiers, shared by the server and the dashboard (no server imports, so it is safe to bundle).
const RANK: Record<Tier, number> = { free: 0, pro: 1, ultra: 2 };

/** True when `to` is a bigger allowance than `from`. */
export const isUpgrade = (from: Tier, to: Tier) => RANK[to] > RANK[from];
