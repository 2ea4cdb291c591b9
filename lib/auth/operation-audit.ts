import { getDb } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { recordAudit, type AuditAction, type AuditEntry } from "@/lib/membership/audit";
import { keepAuditLine } from "@/lib/membership/audit-outbox";
import { log } from "@/lib/observability/logger";

// Which operations leave a line in a team's audit trail, and what each names: one table, read by withApi and by the
// MCP tools (which run the same operations) once an operation has succeeded in a team's account (a person's own
// account has no trail, and costs nothing here).

type Fields = Record<string, unknown>;
interface Audited {
  action: AuditAction;
  /** What it was done to, from the path's parameters and the answer. */
  target?: (params: Fields, result: Fields) => unknown;
  /** Whether this answer is the change (an idempotent call that changed nothing is not recorded). */
  when?: (result: Fields) => boolean;
  data?: (body: Fields) => Fields;
}

const AUDITED: Readonly<Record<string, Audited>> = {
  "POST /v1/me/api-key/ensure": { action: "key.created", target: (_p, r) => r.key_prefix, when: (r) => r.key != null },
  "POST /v1/me/api-key/regenerate": { action: "key.regenerated", target: (_p, r) => r.key_prefix },
  "POST /v1/me/webhooks": { action: "webhook.created", target: (_p, r) => r.url },
  "DELETE /v1/me/webhooks/{id}": { action: "webhook.deleted", target: (p) => p.id },
  "POST /v1/me/webhooks/{id}/rotate-secret": { action: "webhook.secret_rotated", target: (p) => p.id },
  "POST /v1/me/webhooks/request-secret": { action: "webhook.request_secret_rotated" },
  "POST /v1/follows": { action: "follow.created", target: (_p, r) => r.url },
  "PATCH /v1/follows/{id}": { action: "follow.updated", target: (p) => p.id, data: (b) => b },
  "DELETE /v1/follows/{id}": { action: "follow.deleted", target: (p) => p.id },
  "POST /v1/checkout": { action: "billing.checkout", data: (b) => ({ tier: b.tier }) },
  "POST /v1/me/portal": { action: "billing.portal" },
  "POST /v1/me/subscription/cancel": { action: "billing.canceled" },
  "POST /v1/me/subscription/resume": { action: "billing.resumed" },
  "POST /v1/me/subscription/change": { action: "billing.plan_changed", data: (b) => ({ tier: b.tier }) },
  "DELETE /v1/me/subscription/change": { action: "billing.plan_changed", data: () => ({ pending_change: null }) },
  "POST /v1/publish": { action: "transcript.published", target: (_p, r) => r.slug },
  "DELETE /v1/publish/{slug}": { action: "transcript.unpublished", target: (p) => p.slug },
  "DELETE /v1/me/transcriptions/{id}": { action: "transcript.deleted", target: (p) => p.id },
  "PATCH /v1/transcripts/{id}": { action: "transcript.corrected", target: (p) => p.id },
  "DELETE /v1/transcripts/{id}/edits": {
    action: "transcript.corrected",
    target: (p) => p.id,
    data: () => ({ restored: true }),
  },
  "POST /v1/import": { action: "import.started", target: (_p, r) => r.id },
  "POST /v1/alerts/{id}/rotate-feed": { action: "alert.feed_rotated", target: (p) => p.id },
};

/** The operations the trail records ("METHOD path"), for the tests and the API reference. */
export const AUDITED_OPERATIONS: readonly string[] = Object.keys(AUDITED);

/**
 * Records `METHOD path`'s success in the team's trail when `principal` acts in a team; otherwise nothing. A line the
 * database does not take now is kept in the outbox (lib/membership/audit-outbox.ts) and written later, so a change
 * that succeeded is answered as the success it was and its line is not lost.
 */
export async function auditOperation(
  operation: string,
  principal: Principal,
  input: { params?: unknown; body?: unknown; result: unknown },
): Promise<void> {
  const audited = AUDITED[operation];
  if (!audited || !principal.team) return;
  const result = (input.result instanceof Response ? {} : (input.result ?? {})) as Fields;
  if (audited.when && !audited.when(result)) return;
  const at = new Date();
  const target = audited.target?.((input.params ?? {}) as Fields, result);
  const entry: AuditEntry = {
    teamId: principal.userId,
    actorId: principal.personId,
    actorLabel: principal.personId ?? "",
    action: audited.action,
    target: typeof target === "string" ? target : null,
    data: audited.data ? JSON.parse(JSON.stringify(audited.data((input.body ?? {}) as Fields))) : undefined,
  };
  try {
    entry.actorLabel = await actorLabel(principal);
    const db = await getDb();
    await recordAudit(db, entry);
  } catch (err) {
    const id = await keepAuditLine(entry, at);
    log.warn({ err, operation, team: entry.teamId, kept: id }, "audit line kept to be written later");
  }
}

/** Who acted, as the trail keeps it after they leave: the person's e-mail, or the team key's prefix. */
async function actorLabel(principal: Principal): Promise<string> {
  if (principal.teamKey) return `API key ${principal.teamKey.name} (${principal.teamKey.prefix}…)`;
  if (principal.personId === null) return `API key ${principal.apiKey?.prefix ?? ""}…`;
  const db = await getDb();
  const person = await db.user.findUnique({ where: { id: principal.personId }, select: { email: true, name: true } });
  return person?.email ?? person?.name ?? principal.personId;
}
