import { getDb } from "@/lib/db/client";
import { hotQuery } from "@/lib/db/hot-sql";
import type { KeyScope, Prisma, TeamKey, Tier } from "@/lib/generated/prisma/client";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/teams/access";
import { recordAudit } from "@/lib/teams/audit";
import type { CreateTeamKeyRequest, TeamKeyOut } from "@/lib/teams/schemas";

// A team's named keys, beside the contract's one key slot (lib/auth/api-keys.ts): several per team, each with a
// name, scopes (lib/http/permissions.ts maps every operation to one), an optional expiry and its last use. Only the
// SHA-256 is stored; the secret is in the answer that makes the key and nowhere else. Each key remembers who made it
// (and so saw it): their losing the admin role revokes it (lib/teams/role-loss.ts).

/** Distinct from the slot's `vbt_` keys (base58 has no `_`), so a request names which table to look in. */
export const TEAM_KEY_PREFIX = "vbt_tk_";
const DISPLAY_LENGTH = TEAM_KEY_PREFIX.length + 8;
/** How many keys a team keeps: enough for every program and person, few enough to review. */
export const MAX_TEAM_KEYS = 50;
/** As for the slot's key: a key used all day costs one small write a minute. */
const LAST_USED_RESOLUTION_MS = 60_000;

type Tx = Prisma.TransactionClient;
type KeyRow = TeamKey & { createdBy: { email: string | null; name: string | null } };

function serialize(row: KeyRow, now = new Date()): TeamKeyOut {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
    created_by: { id: row.createdById, label: row.createdBy.email ?? row.createdBy.name ?? row.createdById },
    expires_at: row.expiresAt?.toISOString() ?? null,
    expired: row.expiresAt !== null && row.expiresAt <= now,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

const withCreator = { createdBy: { select: { email: true, name: true } } } as const;

/** Runs `write` under the team's lock with the asker's right read again there, as the slot's key is written. */
async function asKeyManager<T>(
  teamId: string,
  personId: string | null,
  write: (tx: Tx, person: string) => Promise<T>,
): Promise<T> {
  const person = requirePerson(personId);
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, TEAM_ACTIONS.manageKeys);
    return write(tx, person);
  });
}

/** POST /v1/teams/{team_id}/keys: the secret is in this answer only. */
export async function createTeamKey(
  teamId: string,
  personId: string | null,
  request: CreateTeamKeyRequest,
): Promise<TeamKeyOut & { key: string }> {
  const expiresAt = request.expires_at ? new Date(request.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw new RequestValidationError([
      {
        type: "value_error",
        loc: ["body", "expires_at"],
        msg: "Value error, must be in the future",
        input: request.expires_at,
      },
    ]);
  const plaintext = randomSecret(TEAM_KEY_PREFIX, 32);
  return asKeyManager(teamId, personId, async (tx, person) => {
    if ((await tx.teamKey.count({ where: { teamId } })) >= MAX_TEAM_KEYS)
      throw errors.conflict("too_many_keys", `The team keeps ${MAX_TEAM_KEYS} keys at most; revoke one first.`);
    const row = await tx.teamKey.create({
      data: {
        teamId,
        name: request.name,
        hash: sha256Hex(plaintext),
        prefix: plaintext.slice(0, DISPLAY_LENGTH),
        scopes: request.scopes,
        createdById: person,
        expiresAt,
      },
      include: withCreator,
    });
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: "key.created",
      target: row.prefix,
      data: { key_id: row.id, name: row.name, scopes: row.scopes, expires_at: row.expiresAt?.toISOString() ?? null },
    });
    return { ...serialize(row), key: plaintext };
  });
}

/** GET /v1/teams/{team_id}/keys: newest first, never a secret (none is kept). */
export async function listTeamKeys(teamId: string, personId: string | null): Promise<{ keys: TeamKeyOut[] }> {
  const db = await getDb();
  await roleIn(db, teamId, requirePerson(personId), TEAM_ACTIONS.manageKeys);
  const rows = await db.teamKey.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: withCreator,
  });
  const now = new Date();
  return { keys: rows.map((row) => serialize(row, now)) };
}

/** DELETE /v1/teams/{team_id}/keys/{key_id}: the key answers 401 from the next request on. */
export async function revokeTeamKey(teamId: string, personId: string | null, keyId: string): Promise<void> {
  await asKeyManager(teamId, personId, async (tx, person) => {
    const row = await tx.teamKey.findFirst({ where: { id: keyId, teamId } });
    if (!row) throw errors.notFound("No key with this id in the team.");
    await tx.teamKey.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: "key.revoked",
      target: row.prefix,
      data: { key_id: row.id, name: row.name, reason: "revoked" },
    });
  });
}

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
