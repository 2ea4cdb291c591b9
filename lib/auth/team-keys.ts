import { getDb } from "@/lib/db/client";
import { hotQuery } from "@/lib/db/hot-sql";
import type { KeyScope, Tier } from "@/lib/generated/prisma/client";
import { sha256Hex } from "@/lib/auth/tokens";
import { errors } from "@/lib/http/errors";

// A team's named keys (made, listed and revoked in lib/teams/keys.ts), beside the contract's one key slot (lib/auth/api-keys.ts): several per team, each with a
// name, scopes (lib/http/permissions.ts maps every operation to one), an optional expiry and its last use. Only the
// SHA-256 is stored; the secret is in the answer that makes the key and nowhere else. Each key remembers who made it
// (and so saw it): their losing the admin role revokes it (lib/membership/role-loss.ts).

/** Distinct from the slot's `vbt_` keys (base58 has no `_`), so a request names which table to look in. */
export const TEAM_KEY_PREFIX = "vbt_tk_";
/** How much of a key its list and the trail show. */
export const DISPLAY_LENGTH = TEAM_KEY_PREFIX.length + 8;
/** As for the slot's key: a key used all day costs one small write a minute. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Who a team key acts for, as of this request. */
export interface TeamKeyCaller {
  id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  teamId: string;
  teamName: string | null;
  teamSlug: string | null;
  tier: Tier;
}

/**
 * The team a key acts in, its scopes and the team's tier (one indexed join), or null for a key that is not one
 * (revoked, never made). An expired key is a 401 saying so. Stamps the key's last use, at most once a minute.
 */
export async function findTeamKeyCaller(plaintext: string): Promise<TeamKeyCaller | null> {
  if (!plaintext.startsWith(TEAM_KEY_PREFIX) || plaintext.length > 128) return null;
  const rows = await hotQuery<{
    id: string;
    name: string;
    prefix: string;
    scopes: string | KeyScope[];
    teamId: string;
    expiresAt: Date | null;
    lastUsedAt: Date | null;
    teamName: string | null;
    teamSlug: string | null;
    tier: Tier | null;
  }>(
    "team-key-caller",
    `SELECT k."id", k."name", k."prefix", k."scopes"::text[] AS "scopes", k."teamId", k."expiresAt", k."lastUsedAt",
       u."name" AS "teamName", u."slug" AS "teamSlug", s."tier"
     FROM "TeamKey" k JOIN "User" u ON u."id" = k."teamId" LEFT JOIN "Subscription" s ON s."userId" = k."teamId"
     WHERE k."hash" = $1`,
    [sha256Hex(plaintext)],
  );
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now)
    throw errors.invalidToken(`This key expired at ${row.expiresAt.toISOString()}; ask a team admin for a new one.`);
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional, so concurrent requests stamp it once.
    const db = await getDb();
    await db.$executeRaw`
      UPDATE "TeamKey" SET "lastUsedAt" = ${new Date(now)}
      WHERE "id" = ${row.id} AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${new Date(now - LAST_USED_RESOLUTION_MS)})`;
  }
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    teamId: row.teamId,
    teamName: row.teamName,
    teamSlug: row.teamSlug,
    tier: row.tier ?? "free",
  };
}

/** pg returns a text[] as an array; a driver without the array parser gives its literal ("{read,transcribe}"). */
function parseScopes(value: string | KeyScope[]): KeyScope[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, "")
    .split(",")
    .filter(Boolean) as KeyScope[];
}
