import { stringify } from "csv-stringify/sync";
import { getDb } from "@/lib/db/client";
import type { AuditEvent, Prisma } from "@/lib/generated/prisma/client";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";
import { requirePerson, roleIn } from "@/lib/membership/access";
import type { AuditExportQuery } from "@/lib/teams/schemas";

// The audit trail as a file: CSV (a header row) or JSON Lines, oldest first, filtered by actor, action and time.
// The answer is a stream fed by keyset-paginated batches (createdAt, id: the trail's index), each read only when the
// client has taken the one before, so a year's trail never sits in memory, whatever its length.

export const EXPORT_BATCH_SIZE = 1000;
const CSV_COLUMNS = ["id", "at", "actor_id", "actor_label", "action", "target", "data"];
// RFC 4180's line ends; cells an office suite would run as a formula (= + - @ …) get a leading quote.
const CSV_OPTIONS = { columns: CSV_COLUMNS, escape_formulas: true, record_delimiter: "\r\n" } as const;

export const EXPORT_CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/jsonl; charset=utf-8",
} as const;

export interface ExportOptions {
  /** Rows read per query (tests make it small to see the batching). */
  batchSize?: number;
  /** Told each batch's size as it is read. */
  onBatch?: (rows: number) => void;
}

function where(teamId: string, query: AuditExportQuery): Prisma.AuditEventWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (query.from) createdAt.gte = new Date(query.from);
  if (query.to) createdAt.lt = new Date(query.to);
  return {
    teamId,
    ...(query.action ? { action: query.action } : {}),
    ...(query.actor ? { OR: [{ actorId: query.actor }, { actorLabel: query.actor }] } : {}),
    ...(query.from || query.to ? { createdAt } : {}),
  };
}

function line(row: AuditEvent, format: AuditExportQuery["format"]): string {
  const event = {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor_id: row.actorId,
    actor_label: row.actorLabel,
    action: row.action,
    target: row.target,
    data: row.data ?? null,
  };
  if (format === "jsonl") return `${JSON.stringify(event)}\n`;
  return stringify([{ ...event, data: event.data === null ? null : JSON.stringify(event.data) }], CSV_OPTIONS);
}

/** GET /v1/teams/{team_id}/audit/export (admins): the role is checked before the first byte, so a refusal is JSON. */
export async function exportAudit(
  teamId: string,
  personId: string | null,
  query: AuditExportQuery,
  options: ExportOptions = {},
): Promise<Response> {
  const db = await getDb();
  await roleIn(db, teamId, requirePerson(personId), TEAM_ACTIONS.exportActivity);
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const filter = where(teamId, query);
  const encoder = new TextEncoder();
  let after: { at: Date; id: string } | null = null;
  let first = true;
  let done = false;

  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (done) return;
        const rows = await db.auditEvent.findMany({
          where: after
            ? {
                AND: [filter, { OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }] }],
              }
            : filter,
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          take: batchSize,
        });
        options.onBatch?.(rows.length);
        let chunk = "";
        if (first && query.format === "csv") chunk += stringify([], { ...CSV_OPTIONS, header: true });
        first = false;
        for (const row of rows) chunk += line(row, query.format);
        if (chunk) controller.enqueue(encoder.encode(chunk));
        const last = rows.at(-1);
        if (rows.length < batchSize || !last) {
          done = true;
          controller.close();
          return;
        }
        after = { at: last.createdAt, id: last.id };
      },
    },
    { highWaterMark: 0 },
  );

  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": EXPORT_CONTENT_TYPES[query.format],
      "content-disposition": `attachment; filename="audit-${stamp}.${query.format}"`,
      "cache-control": "no-store",
    },
  });
}
