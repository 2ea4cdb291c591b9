import { getDb } from "@/lib/db/client";
import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { ownedTeams, tooManyTeams } from "@/lib/membership/set-role";
import { serializeTeam } from "@/lib/teams/serializers";
import { slugFromName, withRandomEnding } from "@/lib/teams/slug";
import type { CreateTeamRequest, TeamOut, UpdateTeamRequest } from "@/lib/teams/schemas";
import type { TeamRole } from "@/lib/generated/prisma/client";
import { atLeast } from "@/lib/roles/ladder";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";

type Tx = Prisma.TransactionClient;
type TeamDetail = TeamOut & { members_count: number; require_sso: boolean };

const slugTaken = (slug: string) =>
  errors.conflict("slug_taken", `Another team has the slug "${slug}": choose another.`);

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** A slug for a new team: the one asked for (409 if taken), or one made from the name, with a random ending if taken. */
async function freeSlug(tx: Tx, request: CreateTeamRequest): Promise<string> {
  const taken = async (slug: string) => (await tx.user.count({ where: { slug } })) > 0;
  if (request.slug) {
    if (await taken(request.slug)) throw slugTaken(request.slug);
    return request.slug;
  }
  let slug = slugFromName(request.name);
  for (let attempt = 0; attempt < 5 && (await taken(slug)); attempt++) slug = withRandomEnding(slug);
  return slug;
}

/** POST /v1/teams: a team account, its creator its owner. */
export async function createTeam(personId: string | null, request: CreateTeamRequest): Promise<TeamOut> {
  const person = requirePerson(personId);
  const db = await getDb();
  try {
    const team = await db.$transaction(async (tx) => {
      // Creates at once count and insert one after another, so the limit holds under concurrency.
      await lockUntilCommit(tx, `teams:${person}`);
      if ((await ownedTeams(tx, person)) >= env().TEAM_MAX_OWNED) throw tooManyTeams();
      const created = await tx.user.create({
        data: { kind: "team", name: request.name, slug: await freeSlug(tx, request) },
      });
      await tx.membership.create({ data: { teamId: created.id, userId: person, role: "owner" } });
      await recordAudit(tx, {
        teamId: created.id,
        actorId: person,
        actorLabel: await personLabel(tx, person),
        action: "team.created",
        target: created.slug,
        data: { name: created.name },
      });
      return created;
    });
    return serializeTeam(team, "owner");
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(request.slug ?? slugFromName(request.name));
    throw error;
  }
}

/** GET /v1/teams: the teams the person is a member of, oldest first. */
export async function listTeams(personId: string | null): Promise<{ teams: TeamOut[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  const memberships = await db.membership.findMany({
    where: { userId: person },
    select: { role: true, team: { select: { id: true, name: true, slug: true, createdAt: true } } },
    orderBy: [{ team: { createdAt: "asc" } }, { teamId: "asc" }],
  });
  return { teams: memberships.map((m) => serializeTeam(m.team, m.role)) };
}

/** GET /v1/teams/{team_id}: any member. */
export async function getTeam(teamId: string, personId: string | null): Promise<TeamDetail> {
  const person = requirePerson(personId);
  const db = await getDb();
  const role = await roleIn(db, teamId, person, TEAM_ACTIONS.read);
  const team = await db.user.findUniqueOrThrow({
    where: { id: teamId },
    select: {
      id: true,
      name: true,
      slug: true,
      createdAt: true,
      requireSso: true,
      _count: { select: { teamMembers: true } },
    },
  });
  return { ...serializeTeam(team, role), members_count: team._count.teamMembers, require_sso: team.requireSso };
}

/** PATCH /v1/teams/{team_id}: a new name or slug (admins); whether sign-in through the provider is required (owner). */
export async function updateTeam(
  teamId: string,
  personId: string | null,
  request: UpdateTeamRequest,
): Promise<TeamDetail> {
  const person = requirePerson(personId);
  const db = await getDb();
  try {
    await db.$transaction(async (tx) => {
      const role = await roleIn(tx, teamId, person, TEAM_ACTIONS.rename);
      const before = await tx.user.findUniqueOrThrow({
        where: { id: teamId },
        select: { name: true, slug: true, requireSso: true },
      });
      if (request.require_sso !== undefined && request.require_sso !== before.requireSso)
        await requireSso(tx, teamId, person, role, request.require_sso);
      const changes: Record<string, { from: string | null; to: string }> = {};
      if (request.name !== undefined && request.name !== before.name)
        changes.name = { from: before.name, to: request.name };
      if (request.slug !== undefined && request.slug !== before.slug)
        changes.slug = { from: before.slug, to: request.slug };
      if (Object.keys(changes).length === 0) return;
      await tx.user.update({
        where: { id: teamId },
        data: { name: changes.name?.to, slug: changes.slug?.to },
      });
      await recordAudit(tx, {
        teamId,
        actorId: person,
        actorLabel: await personLabel(tx, person),
        action: "team.renamed",
        target: changes.slug?.to ?? before.slug,
        data: changes,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(request.slug ?? "");
    throw error;
  }
  return getTeam(teamId, person);
}

/**
 * Turns sign-in through the identity provider on or off for the team's members (owner). Off again: the owner signs
 * in through the provider, uses their personal API key, or asks the operator (`npm run team-sso -- <slug> off`).
 */
async function requireSso(tx: Tx, teamId: string, personId: string, role: TeamRole, on: boolean): Promise<void> {
  if (!atLeast(role, TEAM_ACTIONS.requireSso))
    throw errors.forbidden(
      `Requiring single sign-on needs the ${TEAM_ACTIONS.requireSso} role in the team; yours is ${role}.`,
    );
  const team = await tx.user.update({ where: { id: teamId }, data: { requireSso: on }, select: { slug: true } });
  await recordAudit(tx, {
    teamId,
    actorId: personId,
    actorLabel: await personLabel(tx, personId),
    action: "team.sso_required",
    target: team.slug,
    data: { require_sso: on },
  });
}

/** The operator's switch (`npm run team-sso`): the owner's way back in when the provider cannot let them in. */
export async function setRequireSsoAsOperator(slug: string, on: boolean): Promise<{ id: string; name: string | null }> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const team = await tx.user.findFirst({ where: { kind: "team", slug }, select: { id: true, name: true } });
    if (!team) throw new Error(`No team has the slug "${slug}".`);
    await tx.user.update({ where: { id: team.id }, data: { requireSso: on } });
    await recordAudit(tx, {
      teamId: team.id,
      actorId: null,
      actorLabel: "Server operator",
      action: "team.sso_required",
      target: slug,
      data: { require_sso: on },
    });
    return team;
  });
}
