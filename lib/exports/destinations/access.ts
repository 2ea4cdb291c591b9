import type { Prisma } from "@/lib/generated/prisma/client";
import { DESTINATION_ROLE, lockTeam, roleIn } from "@/lib/membership/access";

/**
 * In a team, the person's right to manage its destinations read again under the team's lock: their removal or a
 * lower role that commits first (which disables the destinations they added, lib/membership/role-loss.ts) is seen.
 */
export async function mayStillManage(tx: Prisma.TransactionClient, accountId: string, personId: string | null) {
  if (personId === null || personId === accountId) return;
  await lockTeam(tx, accountId);
  await roleIn(tx, accountId, personId, DESTINATION_ROLE);
}
