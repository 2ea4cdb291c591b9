import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { teamRolesFromClaims } from "@/lib/auth/oidc-claims";
import { oidcTeamRoleRules } from "@/lib/auth/oidc-settings";
import { lockTeam } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { tellOwners } from "@/lib/membership/owners-mail";
import { applyRole, type Actor } from "@/lib/membership/set-role";
import type { OwnersNotice } from "@/lib/membership/role-loss";

// What a provisioned user's SCIM state means for their membership (docs/decisions, "SCIM provisions members"): active, a
// member, in the role the team's groups give through OIDC_TEAM_ROLES (member when none does); inactive or deleted,
// no member, through the one path every removal takes (lib/membership/set-role.ts applyRole → role-loss.ts), so their
// grants for the team and a team key they could read end in the same transaction.

export type Tx = Prisma.TransactionClient;

/** How the trail names what SCIM did. */
export const SCIM_ACTOR: Actor = { id: null, label: "SCIM provisioning" };

export interface ScimTeam {
  teamId: string;
  slug: string | null;
}

/** The highest role OIDC_TEAM_ROLES gives in the team for these groups (by displayName or externalId), or null. */
export function roleFromGroups(
  slug: string | null,
  groups: readonly { displayName: string; externalId: string | null }[],
): TeamRole | null {
  if (!slug) return null;
  const rules = oidcTeamRoleRules(env()).filter((rule) => rule.team === slug);
  const values = groups.flatMap((group) => [group.displayName, ...(group.externalId ? [group.externalId] : [])]);
  return teamRolesFromClaims(rules, values).get(slug) ?? null;
}

/**
 * Brings the person's membership in line with their SCIM user `scimUserId`: `remove` (the user is being deleted)
 * or an inactive user is no member; an active one is, in the role their groups give. The team's last owner is never
 * lowered or removed: applyRole refuses (last_owner), which the SCIM answer turns into a 409.
 */
export async function syncMembership(
  tx: Tx,
  team: ScimTeam,
  scimUserId: string,
  notices: OwnersNotice[],
  { remove = false }: { remove?: boolean } = {},
): Promise<void> {
  const user = await tx.scimUser.findUniqueOrThrow({
    where: { id: scimUserId },
    include: { groups: { include: { group: { select: { displayName: true, externalId: true } } } } },
  });
  const { teamId } = team;
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId, userId: user.userId } },
    select: { role: true },
  });
  const trail = { scim_id: user.id, user_name: user.userName, external_id: user.externalId };
  if (remove || !user.active) {
    if (!membership) return;
    await applyRole(tx, teamId, user.userId, null, { actor: SCIM_ACTOR, notices });
    await recordAudit(tx, {
      teamId,
      actorId: null,
      actorLabel: SCIM_ACTOR.label,
      action: "member.deprovisioned",
      target: user.userName,
      data: { ...trail, user_id: user.userId, role: membership.role, how: remove ? "deleted" : "deactivated" },
    });
    return;
  }
  const fromGroups = roleFromGroups(
    team.slug,
    user.groups.map((row) => row.group),
  );
  // A role the groups gave and took back falls to member; one set by hand, with no group naming it, stays.
  const role: TeamRole = fromGroups ?? (user.roleFromGroups !== null || !membership ? "member" : membership.role);
  await applyRole(tx, teamId, user.userId, role, {
    actor: SCIM_ACTOR,
    managedByIdentityProvider: true,
    notices,
  });
  if (user.roleFromGroups !== fromGroups)
    await tx.scimUser.update({ where: { id: user.id }, data: { roleFromGroups: fromGroups } });
  if (!membership)
    await recordAudit(tx, {
      teamId,
      actorId: null,
      actorLabel: SCIM_ACTOR.label,
      action: "member.provisioned",
      target: user.userName,
      data: { ...trail, user_id: user.userId, role },
    });
}

/** Runs a SCIM write in one transaction under the team's lock; then tells the owners what it took away. */
export async function provisioning<T>(teamId: string, change: (tx: Tx, notices: OwnersNotice[]) => Promise<T>) {
  const db = await getDb();
  const notices: OwnersNotice[] = [];
  const result = await db.$transaction(
    async (tx) => {
      await lockTeam(tx, teamId);
      return change(tx, notices);
    },
    { timeout: 30_000 },
  );
  await tellOwners(notices);
  return result;
}
