import { getDb } from "@/lib/db/client";
import { NO_DELIVERIES, serializeDestination, type DeliveryCounts } from "./serializers";
import type { DestinationOut } from "./schemas";

/**
 * GET /v1/exports/destinations: the account's destinations, oldest first, each with how its deliveries stand and,
 * while it fails, why (its last error, when, and the next try).
 */
export async function listDestinations(accountId: string): Promise<{ destinations: DestinationOut[] }> {
  const db = await getDb();
  const rows = await db.exportDestination.findMany({ where: { userId: accountId }, orderBy: { createdAt: "asc" } });
  if (rows.length === 0) return { destinations: [] };
  const ids = rows.map((row) => row.id);
  const groups = await db.exportDelivery.groupBy({
    by: ["destinationId", "status"],
    where: { destinationId: { in: ids } },
    _count: { _all: true },
  });
  const counts = new Map<string, DeliveryCounts>();
  for (const group of groups) {
    const entry = counts.get(group.destinationId) ?? { ...NO_DELIVERIES };
    if (group.status in entry) entry[group.status as keyof DeliveryCounts] = group._count._all;
    counts.set(group.destinationId, entry);
  }
  const notes = await db.exportDelivery.findMany({
    where: { destinationId: { in: ids }, status: { in: ["kept", "delivered"] }, lastError: { not: null } },
    orderBy: { updatedAt: "desc" },
    distinct: ["destinationId"],
    select: { destinationId: true, lastError: true },
  });
  const noteOf = new Map(notes.map((n) => [n.destinationId, n.lastError]));
  return {
    destinations: rows.map((row) => serializeDestination(row, counts.get(row.id), noteOf.get(row.id) ?? null)),
  };
}
