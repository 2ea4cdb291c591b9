import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ApiError, errors } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";
import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { sendInvitationMail } from "@/lib/teams/invitation-mail";
import { applyRole, deactivatedByProvider, seatsTaken, tooManyMembers } from "@/lib/membership/set-role";
import { serializeTeam } from "@/lib/teams/serializers";
import type { CreateInvitationRequest, InvitationOut, TeamOut } from "@/lib/teams/schemas";
import { TEAM_ACTIONS, mayGrant } from "@/lib/roles/ladder";

type Tx = Prisma.TransactionClient;

const DAY_MS = 24 * 60 * 60 * 1000;
/** 32 random bytes: the link cannot be guessed; only its SHA-256 is stored, so the table cannot be used either. */
const TOKEN_BYTES = 32;

export const invitationHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

function serializeInvitation(row: {
  id: string;
  email: string;
  role: TeamRole;
  expiresAt: Date;
  createdAt: Date;
}): InvitationOut {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

const pendingWhere = (teamId: string, now: Date) => ({
  teamId,
  acceptedAt: null,
  revokedAt: null,
  expiresAt: { gt: now },
});

/** 429 past TEAM_INVITATIONS_PER_DAY sent in the last 24 hours, with Retry-After until the oldest of them ages out. */
async function refuseOverDailyLimit(tx: Tx, teamId: string, now: Date): Promise<void> {
  const max = env().TEAM_INVITATIONS_PER_DAY;
  const since = new Date(now.getTime() - DAY_MS);
  const sent = await tx.teamInvitation.findMany({
    where: { teamId, createdAt: { gt: since } },
    select: { createdAt: true },
    orderBy: { createdAt: "desc" },
    take: max,
  });
  if (sent.length < max) return;
  const oldest = sent[sent.length - 1].createdAt;
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 1000));
  throw new ApiError(
    "invitations_exhausted",
    `The team sent ${max} invitations in the last 24 hours, the most allowed: try again in ${retryAfter} s.`,
    { "Retry-After": String(retryAfter) },
  );
}

/**
 * POST /v1/teams/{team_id}/invitations (admins; an owner's role only by an owner): a single-use link, mailed.
 * A pending invitation to the same address is replaced (its link stops working).
 */
export async function createInvitation(
  teamId: string,
  personId: string | null,
  request: CreateInvitationRequest,
): Promise<InvitationOut> {
  const person = requirePerson(personId);
  const email = request.email.trim().toLowerCase();
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const db = await getDb();
  const now = new Date();
  const { invitation, teamName, invitedBy } = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const mine = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
    if (!mayGrant(mine, request.role)) throw errors.forbidden("Only an owner can invite an owner.");
    const member = await tx.membership.findFirst({
      where: { teamId, user: { email: { equals: email, mode: "insensitive" } } },
      select: { userId: true },
    });
    if (member) throw errors.conflict("already_member", `${email} is a member of the team already.`);
    await refuseOverDailyLimit(tx, teamId, now);
    const replaced = await tx.teamInvitation.updateMany({
      where: { ...pendingWhere(teamId, now), email },
      data: { revokedAt: now },
    });
    const settings = env();
    if (replaced.count === 0) {
      if (
        (await tx.teamInvitation.count({ where: pendingWhere(teamId, now) })) >= settings.TEAM_MAX_PENDING_INVITATIONS
      )
        throw errors.conflict(
          "too_many_invitations",
          `The team has ${settings.TEAM_MAX_PENDING_INVITATIONS} pending invitations, the most allowed: revoke one first.`,
        );
      if ((await seatsTaken(tx, teamId, now)) >= settings.TEAM_MAX_MEMBERS) throw tooManyMembers();
    }
    const created = await tx.teamInvitation.create({
      data: {
        teamId,
        email,
        role: request.role,
        tokenHash: invitationHash(token),
        invitedById: person,
        expiresAt: new Date(now.getTime() + settings.TEAM_INVITATION_DAYS * DAY_MS),
      },
    });
    const label = await personLabel(tx, person);
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: label,
      action: "member.invited",
      target: email,
      data: { invitation_id: created.id, role: request.role },
    });
    const team = await tx.user.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
    return { invitation: created, teamName: team.name ?? "", invitedBy: label };
  });
  try {
    await sendInvitationMail({
      to: email,
      teamName,
      invitedBy,
      role: invitation.role,
      url: new URL(`/invite/${token}`, env().APP_URL).toString(),
      expiresAt: invitation.expiresAt,
    });
  } catch (error) {
    // Not sent: the link must not stay pending (it takes a seat) without anyone having it.
    await db.teamInvitation.updateMany({
      where: { id: invitation.id, acceptedAt: null },
      data: { revokedAt: new Date() },
    });
    log.warn({ err: error, teamId }, "team invitation mail failed");
    throw errors.upstream("The invitation e-mail could not be sent (the mail server failed). Try again later.");
  }
  return serializeInvitation(invitation);
}

/** GET /v1/teams/{team_id}/invitations (admins): the pending ones, newest first. */
export async function listInvitations(
  teamId: string,
  personId: string | null,
): Promise<{ invitations: InvitationOut[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, TEAM_ACTIONS.manageMembers);
  const rows = await db.teamInvitation.findMany({
    where: pendingWhere(teamId, new Date()),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { invitations: rows.map(serializeInvitation) };
}

/** DELETE /v1/teams/{team_id}/invitations/{invitation_id} (admins): its link stops working. */
export async function revokeInvitation(teamId: string, personId: string | null, invitationId: string): Promise<void> {
  const person = requirePerson(personId);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await roleIn(tx, teamId, person, TEAM_ACTIONS.manageMembers);
    const now = new Date();
    const invitation = await tx.teamInvitation.findFirst({
      where: { id: invitationId, ...pendingWhere(teamId, now) },
      select: { email: true },
    });
    const revoked = await tx.teamInvitation.updateMany({
      where: { id: invitationId, ...pendingWhere(teamId, now) },
      data: { revokedAt: now },
    });
    if (!invitation || revoked.count === 0) throw errors.notFound("No pending invitation with this id in the team.");
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: "invitation.revoked",
      target: invitation.email,
      data: { invitation_id: invitationId },
    });
  });
}

export interface InvitationPreview {
  teamName: string;
  role: TeamRole;
  /** Why the link no longer works; null while it does. */
  problem: string | null;
  /** The address it was sent to (lower case): only a person signed in with it may join. */
  email: string;
}

/** What the invitation page shows before the person accepts: the team and role, or why the link is dead. */
export async function previewInvitation(token: string): Promise<InvitationPreview | null> {
  const db = await getDb();
  const invitation = await db.teamInvitation.findUnique({
    where: { tokenHash: invitationHash(token) },
    select: {
      teamId: true,
      role: true,
      invitedById: true,
      email: true,
      acceptedAt: true,
      revokedAt: true,
      expiresAt: true,
      team: { select: { name: true } },
    },
  });
  if (!invitation) return null;
  const problem = invitation.acceptedAt
    ? "was used already"
    : invitation.revokedAt
      ? "was revoked"
      : invitation.expiresAt <= new Date()
        ? "has expired"
        : !mayGrant(await senderRole(db, invitation), invitation.role)
          ? SENDER_MAY_NOT
          : null;
  return { teamName: invitation.team.name ?? "", role: invitation.role, problem, email: invitation.email };
}

const SENDER_MAY_NOT = "is from someone who may no longer give this role";

/** The role of the invitation's sender in its team now; null when they are no longer in it (or none is recorded). */
async function senderRole(
  tx: Tx,
  invitation: { teamId: string; invitedById: string | null },
): Promise<TeamRole | null> {
  if (!invitation.invitedById) return null;
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId: invitation.teamId, userId: invitation.invitedById } },
    select: { role: true },
  });
  return membership?.role ?? null;
}

const invalid = (why: string) =>
  new ApiError("invitation_invalid", `This invitation link ${why}: ask the team for a new one.`);

/**
 * Whether the person's e-mail is one a sign-in proved: a magic link (emailVerified), an OAuth or OpenID Connect
 * provider (it vouched for the address it gave), or a server whose development login lets anyone at it sign in
 * as any address (where no address is proven at all, so none is asked for).
 */
async function emailProven(tx: Tx, person: { id: string; emailVerified: Date | null }): Promise<boolean> {
  if (person.emailVerified || env().devLogin) return true;
  return (await tx.account.count({ where: { userId: person.id, type: { in: ["oauth", "oidc"] } } })) > 0;
}

/**
 * POST /v1/invitations/accept: the signed-in person joins the team with the invitation's role, once: the link is
 * used by one conditional update, only by a person whose proven e-mail is the invited one (any case), and only
 * while its sender may still give that role (read under the team's lock: removed or lowered, the link is void).
 */
export async function acceptInvitation(personId: string | null, token: string): Promise<{ team: TeamOut }> {
  const person = requirePerson(personId);
  const db = await getDb();
  const invitation = await db.teamInvitation.findUnique({ where: { tokenHash: invitationHash(token) } });
  if (!invitation) throw invalid("is not one this server sent");
  const now = new Date();
  if (invitation.acceptedAt) throw invalid("was used already");
  if (invitation.revokedAt) throw invalid("was revoked");
  if (invitation.expiresAt <= now) throw invalid("has expired");
  return db.$transaction(async (tx) => {
    const me = await tx.user.findUniqueOrThrow({
      where: { id: person },
      select: { id: true, email: true, emailVerified: true },
    });
    if (me.email?.toLowerCase() !== invitation.email)
      throw new ApiError(
        "invitation_email_mismatch",
        "This invitation was sent to another e-mail address: sign in with the address it was sent to.",
      );
    if (!(await emailProven(tx, me)))
      throw new ApiError(
        "invitation_email_mismatch",
        "Your e-mail address is not verified: sign in with an e-mail link (or a provider that vouches for it) and open the invitation again.",
      );
    await lockTeam(tx, invitation.teamId);
    if (!mayGrant(await senderRole(tx, invitation), invitation.role)) throw invalid(SENDER_MAY_NOT);
    if (await deactivatedByProvider(tx, invitation.teamId, person))
      throw invalid("was sent before the team's identity provider deactivated you");
    const used = await tx.teamInvitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (used.count === 0) throw invalid("was used, revoked or has expired");
    const current = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: invitation.teamId, userId: person } },
      select: { role: true },
    });
    const membership =
      current ??
      (await applyRole(tx, invitation.teamId, person, invitation.role, {
        actor: { id: person, label: me.email ?? person },
        seatReserved: true,
      }));
    const team = await tx.user.findUniqueOrThrow({ where: { id: invitation.teamId } });
    return { team: serializeTeam(team, membership!.role) };
  });
}
