import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { KEY_ROLE } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { TEAM_ACTIONS, atLeast, mayGrant } from "@/lib/roles/ladder";

// What a member could reach stops when they are removed, leave or are lowered, in the transaction that changes their
// role (decision 0036): the team's API key, if they could read it; the named team keys they made and were shown
// (decision 0043: the others stay); the pending invitations they may no longer give; and, when they leave the team,
// the connectors and device logins they approved for it.

type Tx = Prisma.TransactionClient;

/** A team key revoked because a member who could read it lost that role: for the owners' notice, after commit. */
export interface KeyRevoked {
  teamId: string;
  prefix: string;
  /** Who lost the role (an e-mail, else a name), and how. */
  member: string;
  why: "member.removed" | "member.left" | "member.role_changed";
}

export interface RoleLoss {
  teamId: string;
  userId: string;
  /** Their label in the trail. */
  member: string;
  from: TeamRole;
  /** null: no longer a member. */
  to: TeamRole | null;
  actor: { id: string | null; label: string };
}

/**
 * Takes away, in `tx`, what `loss.from` gave and `loss.to` does not; returns the revoked team key, if one was, so
 * the caller can tell the owners once the change is committed.
 */
export async function applyRoleLoss(tx: Tx, loss: RoleLoss): Promise<KeyRevoked | null> {
  const { teamId, userId, to, actor } = loss;
  const why = to !== null ? "member.role_changed" : actor.id === userId ? "member.left" : "member.removed";
  await voidInvitations(tx, loss, why);
  if (to === null) {
    // Their grants for this team stop here, refresh tokens with them: no new access token acts in a team they left.
    await tx.oAuthToken.updateMany({
      where: { userId, workspaceId: teamId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
  if (atLeast(loss.from, TEAM_ACTIONS.manageKeys) && !(to !== null && atLeast(to, TEAM_ACTIONS.manageKeys)))
    await revokeKeysMadeBy(tx, loss, why);
  if (!atLeast(loss.from, KEY_ROLE) || (to !== null && atLeast(to, KEY_ROLE))) return null;
  // They could make, regenerate and be shown the key: whatever they kept of it stops acting now.
  const key = await tx.apiKey.findUnique({ where: { userId: teamId }, select: { id: true, prefix: true } });
  if (!key) return null;
  await tx.apiKey.delete({ where: { id: key.id } });
  await recordAudit(tx, {
    teamId,
    actorId: actor.id,
    actorLabel: actor.label,
    action: "key.revoked",
    target: key.prefix,
    data: { reason: why, user_id: userId, member: loss.member },
  });
  return { teamId, prefix: key.prefix, member: loss.member, why };
}

/** Their pending invitations that their role now may not give (all of them, once they have left) stop working. */
async function voidInvitations(tx: Tx, loss: RoleLoss, why: KeyRevoked["why"]): Promise<void> {
  const now = new Date();
  const pending = await tx.teamInvitation.findMany({
    where: { teamId: loss.teamId, invitedById: loss.userId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    select: { id: true, email: true, role: true },
  });
  for (const invitation of pending.filter((i) => !mayGrant(loss.to, i.role))) {
    await tx.teamInvitation.update({ where: { id: invitation.id }, data: { revokedAt: now } });
    await recordAudit(tx, {
      teamId: loss.teamId,
      actorId: loss.actor.id,
      actorLabel: loss.actor.label,
      action: "invitation.revoked",
      target: invitation.email,
      data: { invitation_id: invitation.id, reason: why, sender: loss.member },
    });
  }
}

/** The team's named keys they made, and so were shown, stop acting now; keys others made are not theirs to keep. */
async function revokeKeysMadeBy(tx: Tx, loss: RoleLoss, why: KeyRevoked["why"]): Promise<void> {
  const keys = await tx.teamKey.findMany({
    where: { teamId: loss.teamId, createdById: loss.userId },
    select: { id: true, name: true, prefix: true },
  });
  if (keys.length === 0) return;
  await tx.teamKey.deleteMany({ where: { id: { in: keys.map((key) => key.id) } } });
  for (const key of keys)
    await recordAudit(tx, {
      teamId: loss.teamId,
      actorId: loss.actor.id,
      actorLabel: loss.actor.label,
      action: "key.revoked",
      target: key.prefix,
      data: { key_id: key.id, name: key.name, reason: why, user_id: loss.userId, member: loss.member },
    });
}
