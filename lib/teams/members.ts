import { getDb } from "@/lib/db/client";
import type { TeamRole } from "@/lib/generated/prisma/client";

// A minimal stand-in for the team's membership changes, with the name and signature the shared design fixes:
// what sign-in through the identity provider needs. The full module (audit trail, every rule of who may change
// whom) replaces this one.

export interface MembershipActor {
  /** The person who made the change (null: the server itself). */
  id: string | null;
  label: string;
}

/** Refused: the change would leave the team without an owner. */
export class LastOwnerError extends Error {}

/**
 * Sets `userId`'s role in the team `teamId`, or removes them with null. The team's last owner is neither lowered
 * nor removed (LastOwnerError). Returns what changed.
 */
export async function setMembershipRole(
  teamId: string,
  userId: string,
  role: TeamRole | null,
  { managedByIdentityProvider }: { actor: MembershipActor; managedByIdentityProvider: boolean },
): Promise<"added" | "changed" | "removed" | "unchanged"> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    // Serialises changes to one team's owners, so two at once cannot both remove "the other" owner.
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${teamId} AND kind = 'team' FOR UPDATE`;
    const current = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
    if (current?.role === "owner" && role !== "owner") {
      const owners = await tx.membership.count({ where: { teamId, role: "owner" } });
      if (owners <= 1) throw new LastOwnerError("the team's last owner stays its owner");
    }
    if (role === null) {
      if (!current) return "unchanged";
      await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
      return "removed";
    }
    if (current?.role === role && current.managedByIdentityProvider === managedByIdentityProvider) return "unchanged";
    await tx.membership.upsert({
      where: { teamId_userId: { teamId, userId } },
      create: { teamId, userId, role, managedByIdentityProvider },
      update: { role, managedByIdentityProvider },
    });
    return current ? "changed" : "added";
  });
}
