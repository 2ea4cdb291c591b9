import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import type { Membership, Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, requirePerson, roleIn, teamNotFound } from "@/lib/teams/access";
import { recordAudit } from "@/lib/teams/audit";
import { tellOwnersKeyRevoked } from "@/lib/teams/key-revoked-mail";
import { applyRoleLoss, type KeyRevoked } from "@/lib/teams/role-loss";
import { ownedTeams, tooManyTeams } from "@/lib/teams/teams";
import type { MemberOut } from "@/lib/teams/schemas";
import { TEAM_ACTIONS, TEAM_ROLES, mayGrant } from "@/lib/roles/ladder";

type Tx = Prisma.TransactionClient;

/** Who made a change, for the audit trail: a person, or (id null) the server or an identity provider. */
export interface Actor {
  id: string | null;
  label: string;
}

const lastOwner = () =>
  errors.conflict(
    "last_owner",
    "The team's last owner cannot be lowered, removed or leave: make another member owner first (or transfer ownership).",
  );

const memberNotFound = () => errors.notFound("No member with this id in the team.");

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
 * Sets `userId`'s role in the team (adding them), or removes them (`role` null), in `tx` under the team's lock
 * (taken here): the last owner is never lowered or removed, a new member needs a free seat, the change is in
 * the audit trail, and what the old role reached and the new one does not stops (role-loss.ts; a revoked team key
 * is added to `revokedKeys`, for the owners' notice after commit). Returns the membership now, or null when there is
 * none.
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
    revokedKeys,
  }: {
    actor: Actor;
    managedByIdentityProvider?: boolean;
    /** An accepted invitation's seat was counted when it was sent. */
    seatReserved?: boolean;
    revokedKeys?: KeyRevoked[];
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
    const revoked = await applyRoleLoss(tx, { teamId, userId, member, from: current.role, to: null, actor });
    if (revoked) revokedKeys?.push(revoked);
    return null;
  }
  if (!current) {
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
    const revoked = await applyRoleLoss(tx, { teamId, userId, member, from: current.role, to: role, actor });
    if (revoked) revokedKeys?.push(revoked);
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
  return changingRoles((tx, revokedKeys) =>
    applyRole(tx, teamId, userId, role, { actor, managedByIdentityProvider, revokedKeys }),
  );
}

/** Runs a change of memberships in one transaction, then tells the owners of any team key it revoked. */
async function changingRoles<T>(change: (tx: Tx, revokedKeys: KeyRevoked[]) => Promise<T>): Promise<T> {
  const db = await getDb();
  const revokedKeys: KeyRevoked[] = [];
  const result = await db.$transaction((tx) => change(tx, revokedKeys));
  await tellOwnersKeyRevoked(revokedKeys);
  return result;
}

/** GET /v1/teams/{team_id}/members: any member. Owners first, then by when they joined. */
export async function listMembers(teamId: string, personId: string | null): Promise<{ members: MemberOut[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, TEAM_ACTIONS.read);
  const rows = await db.membership.findMany({
    where: { teamId },
    select: {
      userId: true,
      role: true,
      createdAt: true,
      managedByIdentityProvider: true,
      user: { select: { email: true, name: true } },
    },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
  });
  rows.sort((a, b) => TEAM_ROLES.indexOf(a.role) - TEAM_ROLES.indexOf(b.role));
  return {
    members: rows.map((row) => ({
      user_id: row.userId,
      email: row.user.email,
      name: row.user.name,
      role: row.role,
      joined_at: row.createdAt.toISOString(),
      managed_by_identity_provider: row.managedByIdentityProvider,
    })),
  };
}

async function memberRole(tx: Tx, teamId: string, userId: string): Promise<TeamRole> {
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { role: true },
  });
  if (!membership) throw memberNotFound();
  return membership.role;
}

const onlyOwners = () => errors.forbidden("Only an owner can make or unmake an owner.");

async function memberOut(tx: Tx, teamId: string, userId: string): Promise<MemberOut> {
  const row = await tx.membership.findUniqueOrThrow({
    where: { teamId_userId: { teamId, userId } },
    include: { user: { select: { email: true, name: true } } },
  });
  return {
    user_id: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: row.role,
    joined_at: row.createdAt.toISOString(),
    managed_by_identity_provider: row.managedByIdentityProvider,
  };
}

/** PATCH /v1/teams/{team_id}/members/{user_id}: admins; only an owner makes or unmakes an owner. */
export async function changeMemberRole(
  teamId: string,
  personId: string | null,
  userId: string,
  role: TeamRole,
): Promise<MemberOut> {
  const person = requirePerson(personId);
  return changingRoles(async (tx, revokedKeys) => {
    await lockTeam(tx, teamId);
    const mine = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
    const theirs = await memberRole(tx, teamId, userId);
    if (!mayGrant(mine, role) || !mayGrant(mine, theirs)) throw onlyOwners();
    await applyRole(tx, teamId, userId, role, {
      actor: { id: person, label: await personLabel(tx, person) },
      // A role set by hand is the team's choice until the identity provider's next sign-in sets it again.
      managedByIdentityProvider: false,
      revokedKeys,
    });
    return memberOut(tx, teamId, userId);
  });
}

/**
 * DELETE /v1/teams/{team_id}/members/{user_id}: an admin removes a member (an owner only by an owner), or anyone
 * leaves (their own id); the last owner can do neither.
 */
export async function removeMember(teamId: string, personId: string | null, userId: string): Promise<void> {
  const person = requirePerson(personId);
  await changingRoles(async (tx, revokedKeys) => {
    await lockTeam(tx, teamId);
    if (userId === person) await roleIn(tx, teamId, person, TEAM_ACTIONS.read);
    else {
      const mine = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
      if (!mayGrant(mine, await memberRole(tx, teamId, userId))) throw onlyOwners();
    }
    const actor = { id: person, label: await personLabel(tx, person) };
    await applyRole(tx, teamId, userId, null, { actor, revokedKeys });
  });
}

/** POST /v1/teams/{team_id}/transfer: the owner hands the team to a member, who becomes owner; they become admin. */
export async function transferOwnership(
  teamId: string,
  personId: string | null,
  userId: string,
): Promise<{ members: MemberOut[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, TEAM_ACTIONS.transferOwnership);
    if (userId === person)
      throw new RequestValidationError([
        { type: "value_error", loc: ["body", "user_id"], msg: "Value error, you own the team already", input: userId },
      ]);
    const theirs = await memberRole(tx, teamId, userId);
    const actor = { id: person, label: await personLabel(tx, person) };
    if (theirs !== "owner") await applyRole(tx, teamId, userId, "owner", { actor, managedByIdentityProvider: false });
    await applyRole(tx, teamId, person, "admin", { actor, managedByIdentityProvider: false });
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: actor.label,
      action: "ownership.transferred",
      target: await personLabel(tx, userId),
      data: { from: person, to: userId },
    });
  });
  return listMembers(teamId, person);
}
