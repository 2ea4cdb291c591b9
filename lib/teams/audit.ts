import { getDb } from "@/lib/db/client";
import { RequestValidationError } from "@/lib/http/validation";
import type { Prisma } from "@/lib/generated/prisma/client";
import { requirePerson, roleIn } from "@/lib/teams/access";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";

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
 * is). A no-op when `teamId` is a person's own account: only teams have a trail.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const account = await tx.user.findUnique({ where: { id: entry.teamId }, select: { kind: true } });
  if (account?.kind !== "team") return;
  await tx.auditEvent.create({
    data: {
      teamId: entry.teamId,
      actorId: entry.actorId,
      actorLabel: entry.actorLabel.slice(0, 320),
      action: entry.action,
      target: entry.target?.slice(0, 2000) ?? null,
      data: entry.data,
    },
  });
}

export interface AuditEventOut {
  id: string;
  at: string;
  actor: { id: string | null; label: string };
  action: string;
  target: string | null;
  data: unknown;
}

function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  if (rest.length || !id || Number.isNaN(date.getTime()) || !/^[\w-]{1,64}$/.test(id))
    throw new RequestValidationError([
      { type: "value_error", loc: ["query", "cursor"], msg: "Value error, not a cursor this API gave", input: cursor },
    ]);
  return { at: date, id };
}

/** GET /v1/teams/{team_id}/audit: newest first, `limit` a page, `next_cursor` the next page (admins). */
export async function listAudit(
  teamId: string,
  personId: string | null,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ events: AuditEventOut[]; next_cursor: string | null }> {
  const db = await getDb();
  await roleIn(db, teamId, requirePerson(personId), TEAM_ACTIONS.readActivity);
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await db.auditEvent.findMany({
    where: {
      teamId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      actor: { id: row.actorId, label: row.actorLabel },
      action: row.action,
      target: row.target,
      data: row.data ?? null,
    })),
    next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
