import type { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

/** Every action the audit trail records: a closed list, so the trail can be filtered and read by name. */
export const AUDIT_ACTIONS = [
  "team.created",
  "team.renamed",
  "team.sso_required",
  "domain.added",
  "domain.verified",
  "domain.deleted",
  "team.deleted",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "invitation.revoked",
  "ownership.transferred",
  "key.created",
  "key.regenerated",
  "key.revoked",
  "scim.token_created",
  "scim.token_regenerated",
  "scim.token_revoked",
  "member.provisioned",
  "member.deprovisioned",
  "webhook.created",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.request_secret_rotated",
  "webhook.disabled",
  "alert.feed_rotated",
  "alert.handed_over",
  "follow.created",
  "follow.updated",
  "follow.deleted",
  "billing.checkout",
  "billing.portal",
  "billing.plan_changed",
  "billing.canceled",
  "billing.resumed",
  "transcript.published",
  "transcript.unpublished",
  "transcript.deleted",
  "transcript.corrected",
  "import.started",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  teamId: string;
  /** The person who acted; null for a team's API key or the server itself. */
  actorId: string | null;
  /** Who that was, kept when they leave (an e-mail, "API key vbt_ab12…", "identity provider"). */
  actorLabel: string;
  action: AuditAction;
  target?: string | null;
  data?: Prisma.InputJsonValue;
}

/**
 * Records an event in the team's trail, in the caller's transaction (so it is written exactly when the change
 * is). A no-op when `teamId` is a person's own account: only teams have a trail. `kept`: a line written later
 * (audit-outbox.ts) under the id and time it was given; written twice, it is one row.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry, kept?: { id: string; at: Date }): Promise<void> {
  const account = await tx.user.findUnique({ where: { id: entry.teamId }, select: { kind: true } });
  if (account?.kind !== "team") return;
  const data = {
    teamId: entry.teamId,
    actorId: entry.actorId,
    actorLabel: entry.actorLabel.slice(0, 320),
    action: entry.action,
    target: entry.target?.slice(0, 2000) ?? null,
    data: entry.data,
  };
  if (kept)
    await tx.auditEvent.createMany({ data: [{ ...data, id: kept.id, createdAt: kept.at }], skipDuplicates: true });
  else await tx.auditEvent.create({ data });
}
