import { randomBytes } from "node:crypto";
import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { ALERT_ROLE, DESTINATION_ROLE, KEY_ROLE, WEBHOOK_ROLE } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { TEAM_ACTIONS, atLeast, mayGrant } from "@/lib/roles/ladder";

// What a member could reach stops when they are removed, leave or are lowered, in the transaction that changes their
// role (decision 0036): the team's API key, if they could read it; the named team keys they made and were shown
// (decision 0043: the others stay); the pending invitations they may no longer give; when they leave the team, the
// connectors and device logins they approved for it; and what they set up in it (decision 0051): the team's alerts
// they saved are handed to the team under a new feed URL, and the webhook endpoints they registered are disabled.

type Tx = Prisma.TransactionClient;

type Why = "member.removed" | "member.left" | "member.role_changed";

/** A team key revoked because a member who could read it lost that role: for the owners' notice, after commit. */
export interface KeyRevoked {
  kind: "key";
  teamId: string;
  prefix: string;
  /** Who lost the role (an e-mail, else a name), and how. */
  member: string;
  why: Why;
}

/** The team's webhook endpoints a member registered, disabled as they lost the role: for the owners' notice. */
export interface WebhooksDisabled {
  kind: "webhooks";
  teamId: string;
  urls: string[];
  member: string;
  why: Why;
}

/** What the team's owners are told once a change of memberships is committed. */
export type OwnersNotice = KeyRevoked | WebhooksDisabled;

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

/** Whether `loss` takes `role` away: they held it and no longer do. */
const loses = (loss: RoleLoss, role: TeamRole) =>
  atLeast(loss.from, role) && !(loss.to !== null && atLeast(loss.to, role));

/**
 * Takes away, in `tx`, what `loss.from` gave and `loss.to` does not; returns what the owners are to be told (a
 * revoked team key, disabled webhook endpoints) once the change is committed.
 */
export async function applyRoleLoss(tx: Tx, loss: RoleLoss): Promise<OwnersNotice[]> {
  const { teamId, userId, to, actor } = loss;
  const why: Why = to !== null ? "member.role_changed" : actor.id === userId ? "member.left" : "member.removed";
  const notices: OwnersNotice[] = [];
  await voidInvitations(tx, loss, why);
  if (loses(loss, ALERT_ROLE)) await handOverAlerts(tx, loss, why);
  if (loses(loss, WEBHOOK_ROLE)) {
    const urls = await disableWebhooks(tx, loss, why);
    if (urls.length > 0) notices.push({ kind: "webhooks", teamId, urls, member: loss.member, why });
  }
  // The export destinations they added stop too: a member who goes takes no team transcript with them.
  if (loses(loss, DESTINATION_ROLE)) await disableExportDestinations(tx, loss, why);
  if (to === null) {
    // Their grants for this team stop here, refresh tokens with them: no new access token acts in a team they left.
    await tx.oAuthToken.updateMany({
      where: { userId, workspaceId: teamId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
  if (loses(loss, TEAM_ACTIONS.manageKeys)) await revokeKeysMadeBy(tx, loss, why);
  if (!loses(loss, KEY_ROLE)) return notices;
  // They could make, regenerate and be shown the key: whatever they kept of it stops acting now.
  const key = await tx.apiKey.findUnique({ where: { userId: teamId }, select: { id: true, prefix: true } });
  if (!key) return notices;
  await tx.apiKey.delete({ where: { id: key.id } });
  await recordAudit(tx, {
    teamId,
    actorId: actor.id,
    actorLabel: actor.label,
    action: "key.revoked",
    target: key.prefix,
    data: { reason: why, user_id: userId, member: loss.member },
  });
  notices.push({ kind: "key", teamId, prefix: key.prefix, member: loss.member, why });
  return notices;
}

/**
 * The team's alerts they saved become the team's (no maker, so no mail), each under a new feed URL: the one they
 * were shown stops answering, and the team keeps the saved search and its matches.
 */
async function handOverAlerts(tx: Tx, loss: RoleLoss, why: Why): Promise<void> {
  const alerts = await tx.alert.findMany({
    where: { userId: loss.teamId, createdById: loss.userId },
    select: { id: true, name: true },
  });
  for (const alert of alerts) {
    await tx.alert.update({
      where: { id: alert.id },
      data: { createdById: null, email: false, feedToken: randomBytes(32).toString("base64url") },
    });
    await recordAudit(tx, {
      teamId: loss.teamId,
      actorId: loss.actor.id,
      actorLabel: loss.actor.label,
      action: "alert.handed_over",
      target: alert.id,
      data: { name: alert.name, reason: why, user_id: loss.userId, member: loss.member },
    });
  }
}

/**
 * The team's webhook endpoints they registered (or last gave a secret) stop receiving: they chose the address and
 * were shown the secret. Disabled, not deleted: an admin who stays reviews the address and enables it again by
 * rotating its secret (the new secret is shown to that admin, who then holds it). What was waiting to be sent to
 * them fails now.
 */
async function disableExportDestinations(tx: Tx, loss: RoleLoss, why: Why): Promise<void> {
  const reason = `${loss.member}, who added it, ${WHY_TEXT[why]}: an admin may add it again.`;
  const disabled = await tx.exportDestination.findMany({
    where: { userId: loss.teamId, createdById: loss.userId, disabledAt: null },
    select: { id: true },
  });
  if (disabled.length === 0) return;
  const ids = disabled.map((d) => d.id);
  await tx.exportDestination.updateMany({
    where: { id: { in: ids } },
    data: { disabledAt: new Date(), disabledReason: reason },
  });
  await tx.exportDelivery.updateMany({
    where: { destinationId: { in: ids }, status: "pending" },
    data: {
      status: "failed",
      nextAttemptAt: null,
      lastError: `Not delivered: the destination was disabled (${reason})`,
    },
  });
}

async function disableWebhooks(tx: Tx, loss: RoleLoss, why: Why): Promise<string[]> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { userId: loss.teamId, createdById: loss.userId, disabledAt: null },
    select: { id: true, url: true },
  });
  if (endpoints.length === 0) return [];
  const ids = endpoints.map((endpoint) => endpoint.id);
  const reason = `${loss.member}, who registered it, ${WHY_TEXT[why]}: review its address and rotate its secret to enable it again.`;
  const now = new Date();
  await tx.webhookEndpoint.updateMany({
    where: { id: { in: ids } },
    data: { disabledAt: now, disabledReason: reason },
  });
  await tx.webhookDelivery.updateMany({
    where: { endpointId: { in: ids }, status: "pending" },
    data: { status: "failed", nextAttemptAt: null, lastError: `Not sent: the endpoint was disabled (${reason})` },
  });
  for (const endpoint of endpoints)
    await recordAudit(tx, {
      teamId: loss.teamId,
      actorId: loss.actor.id,
      actorLabel: loss.actor.label,
      action: "webhook.disabled",
      target: endpoint.url,
      data: { endpoint_id: endpoint.id, reason: why, user_id: loss.userId, member: loss.member },
    });
  return endpoints.map((endpoint) => endpoint.url);
}

const WHY_TEXT: Record<Why, string> = {
  "member.removed": "was removed from the team",
  "member.left": "left the team",
  "member.role_changed": "no longer has a role that may manage webhooks",
};

/** Their pending invitations that their role now may not give (all of them, once they have left) stop working. */
async function voidInvitations(tx: Tx, loss: RoleLoss, why: Why): Promise<void> {
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
async function revokeKeysMadeBy(tx: Tx, loss: RoleLoss, why: Why): Promise<void> {
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
