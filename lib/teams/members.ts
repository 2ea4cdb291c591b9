import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { applyRole, changingRoles } from "@/lib/membership/set-role";
import type { MemberOut } from "@/lib/teams/schemas";
import { TEAM_ACTIONS, TEAM_ROLES, mayGrant } from "@/lib/roles/ladder";

type Tx = Prisma.TransactionClient;

const memberNotFound = () => errors.notFound("No member with this id in the team.");

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
  return changingRoles(async (tx, notices) => {
    await lockTeam(tx, teamId);
    const mine = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
    const theirs = await memberRole(tx, teamId, userId);
    if (!mayGrant(mine, role) || !mayGrant(mine, theirs)) throw onlyOwners();
    await applyRole(tx, teamId, userId, role, {
      actor: { id: person, label: await personLabel(tx, person) },
      // A role set by hand is the team's choice until the identity provider's next sign-in sets it again.
      managedByIdentityProvider: false,
      notices,
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
  await changingRoles(async (tx, notices) => {
    await lockTeam(tx, teamId);
    if (userId === person) await roleIn(tx, teamId, person, TEAM_ACTIONS.read);
    else {
      const mine = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
      if (!mayGrant(mine, await memberRole(tx, teamId, userId))) throw onlyOwners();
    }
    const actor = { id: person, label: await personLabel(tx, person) };
    await applyRole(tx, teamId, userId, null, { actor, notices });
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
