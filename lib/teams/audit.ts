import { getDb } from "@/lib/db/client";
import { RequestValidationError } from "@/lib/http/validation";
import { requirePerson, roleIn } from "@/lib/membership/access";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";

// The trail read back (GET /v1/teams/{team_id}/audit); lib/membership/audit.ts writes it.

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
