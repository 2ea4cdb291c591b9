import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import type { z } from "zod";
import type { connectionSchema } from "@/lib/oauth/schemas";

type Connection = z.output<typeof connectionSchema>;

/**
 * GET /v1/me/connections: the caller's connected apps, one per grant (a consent or a device approval;
 * its refresh rotations share the grant), newest first, with the last time any of its tokens was used.
 */
export async function listConnections(userId: string, now = new Date()): Promise<{ items: Connection[] }> {
  const db = await getDb();
  // Live grants: a refresh token not yet rotated and not expired, or an access token still valid.
  const rows = await db.oAuthToken.findMany({
    where: {
      userId,
      revokedAt: null,
      OR: [{ refreshUsedAt: null, refreshExpiresAt: { gt: now } }, { accessExpiresAt: { gt: now } }],
    },
    select: {
      id: true,
      familyId: true,
      clientId: true,
      deviceLabel: true,
      scope: true,
      createdAt: true,
      lastUsedAt: true,
      client: { select: { name: true } },
    },
    orderBy: { createdAt: "asc" },
    take: 1000,
  });
  const grants = new Map<string, Connection & { first: Date; last: Date | null }>();
  for (const row of rows) {
    const id = row.familyId ?? row.id;
    const known = grants.get(id);
    if (known) {
      if (row.lastUsedAt && (!known.last || row.lastUsedAt > known.last)) known.last = row.lastUsedAt;
      continue;
    }
    grants.set(id, {
      id,
      kind: row.clientId ? "connector" : "device",
      name: row.clientId ? (row.client?.name ?? "Unnamed app") : (row.deviceLabel ?? "Device login"),
      client_id: row.clientId,
      scope: row.scope ?? "api",
      connected_at: "",
      last_used_at: null,
      first: row.createdAt,
      last: row.lastUsedAt,
    });
  }
  // A grant's first token may have rotated away; its connection time is the oldest live row's, at worst.
  const items = [...grants.values()]
    .map(({ first, last, ...item }) => ({
      ...item,
      connected_at: first.toISOString(),
      last_used_at: last?.toISOString() ?? null,
    }))
    .sort((a, b) => b.connected_at.localeCompare(a.connected_at));
  return { items };
}

/** DELETE /v1/me/connections/{id}: every token of the grant stops working at once. */
export async function revokeConnection(userId: string, id: string): Promise<{ revoked: number }> {
  const db = await getDb();
  const result = await db.oAuthToken.updateMany({
    where: { userId, revokedAt: null, OR: [{ familyId: id }, { id, familyId: null }] },
    data: { revokedAt: new Date() },
  });
  if (result.count === 0) throw errors.notFound("No connected app with this id.");
  return { revoked: result.count };
}
