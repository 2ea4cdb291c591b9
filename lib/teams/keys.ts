import { getDb } from "@/lib/db/client";
import type { Prisma, TeamKey } from "@/lib/generated/prisma/client";
import { DISPLAY_LENGTH, TEAM_KEY_PREFIX } from "@/lib/auth/team-keys";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import type { CreateTeamKeyRequest, TeamKeyOut } from "@/lib/teams/schemas";

// A team's named keys, made, listed and revoked by its admins; lib/auth/team-keys.ts finds the team a key acts in.

/** How many keys a team keeps: enough for every program and person, few enough to review. */
export const MAX_TEAM_KEYS = 50;
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
