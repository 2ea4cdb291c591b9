import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import type { Membership, Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, teamNotFound } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { tellOwners } from "@/lib/membership/owners-mail";
import { applyRoleLoss, type OwnersNotice } from "@/lib/membership/role-loss";

// Setting a person's role in a team under the team's rules: the team's endpoints, SCIM and sign-in (the identity
// provider's role map, a verified domain) all change memberships through applyRole.

type Tx = Prisma.TransactionClient;

/** Who made a change, for the audit trail: a person, or (id null) the server or an identity provider. */
export interface Actor {
  id: string | null;
  label: string;
}

/** Teams the person owns: the limit TEAM_MAX_OWNED counts these. */
export async function ownedTeams(tx: Tx, personId: string): Promise<number> {
  return tx.membership.count({ where: { userId: personId, role: "owner" } });
}

export function tooManyTeams(who = "You") {
  const max = env().TEAM_MAX_OWNED;
  return errors.conflict("too_many_teams", `${who} own ${max} teams, the most allowed: delete or hand one over first.`);
}

const lastOwner = () =>
  errors.conflict(
    "last_owner",
    "The team's last owner cannot be lowered, removed or leave: make another member owner first (or transfer ownership).",
  );

async function owners(tx: Tx, teamId: string): Promise<number> {
  return tx.membership.count({ where: { teamId, role: "owner" } });
}

/** Members and pending invitations together: what TEAM_MAX_MEMBERS counts. */
export async function seatsTaken(tx: Tx, teamId: string, now = new Date()): Promise<number> {
  const [members, pending] = await Promise.all([
    tx.membership.count({ where: { teamId } }),
    tx.teamInvitation.count({ where: { teamId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } } }),
  ]);
  return members + pending;
}

export const tooManyMembers = () =>
  errors.conflict(
    "too_many_members",
    `The team has ${env().TEAM_MAX_MEMBERS} members and invitations, the most allowed.`,
  );

/**
 * Whether the team's identity provider deactivated the person (their SCIM user is kept, inactive): only it adds
 * them again, so no invitation sent before, verified domain or hand-made change does.
 */
export async function deactivatedByProvider(tx: Tx, teamId: string, userId: string): Promise<boolean> {
  const provisioned = await tx.scimUser.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { active: true },
  });
  return provisioned !== null && !provisioned.active;
}

/**
 * Sets `userId`'s role in the team (adding them), or removes them (`role` null), in `tx` under the team's lock
 * (taken here): the last owner is never lowered or removed, a new member needs a free seat, the change is in
 * the audit trail, and what the old role reached and the new one does not stops (role-loss.ts; what the owners are
 * to be told of it is added to `notices`, for after commit). Returns the membership now, or null when there is none.
 */
export async function applyRole(
  tx: Tx,
  teamId: string,
  userId: string,
  role: TeamRole | null,
  {
    actor,
    managedByIdentityProvider,
    seatReserved = false,
    notices,
  }: {
    actor: Actor;
    managedByIdentityProvider?: boolean;
    /** An accepted invitation's seat was counted when it was sent. */
    seatReserved?: boolean;
    notices?: OwnersNotice[];
  },
): Promise<Membership | null> {
  await lockTeam(tx, teamId);
  const team = await tx.user.findUnique({ where: { id: teamId }, select: { kind: true } });
  if (team?.kind !== "team") throw teamNotFound();
  const current = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
  const label = () => personLabel(tx, userId);
  if (role === null) {
    if (!current) return null;
    if (current.role === "owner" && (await owners(tx, teamId)) <= 1) throw lastOwner();
    await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
    const member = await label();
    await recordAudit(tx, {
      teamId,
      actorId: actor.id,
      actorLabel: actor.label,
      action: actor.id === userId ? "member.left" : "member.removed",
      target: member,
      data: { user_id: userId, role: current.role },
    });
    notices?.push(...(await applyRoleLoss(tx, { teamId, userId, member, from: current.role, to: null, actor })));
    return null;
  }
  if (!current) {
    if (await deactivatedByProvider(tx, teamId, userId))
      throw errors.forbidden(
        "The team's identity provider deactivated this person: only it can make them a member again.",
      );
    if (!seatReserved && (await seatsTaken(tx, teamId)) >= env().TEAM_MAX_MEMBERS) throw tooManyMembers();
    if (role === "owner" && (await ownedTeams(tx, userId)) >= env().TEAM_MAX_OWNED) throw tooManyTeams("They");
    const created = await tx.membership.create({
      data: { teamId, userId, role, managedByIdentityProvider: managedByIdentityProvider ?? false },
    });
    await recordAudit(tx, {
      teamId,
      actorId: actor.id,
      actorLabel: actor.label,
      action: "member.joined",
      target: await label(),
      data: { user_id: userId, role },
    });
    return created;
  }
  const managed = managedByIdentityProvider ?? current.managedByIdentityProvider;
  if (current.role === role && current.managedByIdentityProvider === managed) return current;
  if (current.role === "owner" && role !== "owner" && (await owners(tx, teamId)) <= 1) throw lastOwner();
  if (role === "owner" && current.role !== "owner" && (await ownedTeams(tx, userId)) >= env().TEAM_MAX_OWNED)
    throw tooManyTeams("They");
  const updated = await tx.membership.update({
    where: { teamId_userId: { teamId, userId } },
    data: { role, managedByIdentityProvider: managed },
  });
  if (current.role !== role) {
    const member = await label();
    await recordAudit(tx, {
      teamId,
      actorId: actor.id,
      actorLabel: actor.label,
      action: "member.role_changed",
      target: member,
      data: { user_id: userId, from: current.role, to: role },
    });
    notices?.push(...(await applyRoleLoss(tx, { teamId, userId, member, from: current.role, to: role, actor })));
  }
  return updated;
}

/**
 * Sets a person's role in a team, or removes them (null), with the team's rules (last owner, seats) and an audit
 * event: the identity provider's sign-in applies its claim through this on every sign-in.
 */
export async function setMembershipRole(
  teamId: string,
  userId: string,
  role: TeamRole | null,
  { actor, managedByIdentityProvider }: { actor: Actor; managedByIdentityProvider: boolean },
): Promise<Membership | null> {
  return changingRoles((tx, notices) =>
    applyRole(tx, teamId, userId, role, { actor, managedByIdentityProvider, notices }),
  );
}

/** Runs a change of memberships in one transaction, then tells the owners what it took away (role-loss.ts). */
export async function changingRoles<T>(change: (tx: Tx, notices: OwnersNotice[]) => Promise<T>): Promise<T> {
  const db = await getDb();
  const notices: OwnersNotice[] = [];
  const result = await db.$transaction((tx) => change(tx, notices));
  await tellOwners(notices);
  return result;
}
