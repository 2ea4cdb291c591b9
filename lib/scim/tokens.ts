import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import type { ScimToken } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";
import type { ScimTokenState } from "@/lib/scim/schemas";

// A team's SCIM token: one per team, made and revoked by its owner, shown once, only its SHA-256 stored (like the
// API keys of lib/auth/api-keys.ts, with a prefix of its own so neither is ever taken for the other).

export const SCIM_TOKEN_PREFIX = "vbscim_";
const DISPLAY_LENGTH = SCIM_TOKEN_PREFIX.length + 8;
/** How stale `lastUsedAt` may get: an identity provider's sync costs one small write a minute. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Who may make, see and revoke a team's SCIM token: it adds and removes members, admins and owners included. */
const SCIM_TOKEN_ROLE = TEAM_ACTIONS.transferOwnership;

export function scimBaseUrl(): string {
  return new URL("/scim/v2", env().APP_URL).toString();
}

function state(row: ScimToken | null, plaintext?: string): ScimTokenState {
  return {
    exists: row !== null,
    ...(plaintext ? { token: plaintext } : {}),
    token_prefix: row?.prefix ?? null,
    created_at: row?.createdAt.toISOString() ?? null,
    last_used_at: row?.lastUsedAt?.toISOString() ?? null,
    base_url: scimBaseUrl(),
  };
}

/** GET /v1/teams/{team_id}/scim: whether the team has a token (the owner). */
export async function scimTokenState(teamId: string, personId: string | null): Promise<ScimTokenState> {
  const db = await getDb();
  await roleIn(db, teamId, requirePerson(personId), SCIM_TOKEN_ROLE);
  return state(await db.scimToken.findUnique({ where: { teamId } }));
}

/** POST /v1/teams/{team_id}/scim: a new token, replacing the team's (which stops at once); the plaintext once. */
export async function makeScimToken(teamId: string, personId: string | null): Promise<ScimTokenState> {
  const person = requirePerson(personId);
  const plaintext = randomSecret(SCIM_TOKEN_PREFIX, 32);
  const hash = sha256Hex(plaintext);
  const prefix = plaintext.slice(0, DISPLAY_LENGTH);
  const db = await getDb();
  const row = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, SCIM_TOKEN_ROLE);
    const previous = await tx.scimToken.findUnique({ where: { teamId }, select: { prefix: true } });
    const made = await tx.scimToken.upsert({
      where: { teamId },
      create: { teamId, hash, prefix, createdById: person },
      update: { hash, prefix, createdById: person, createdAt: new Date(), lastUsedAt: null },
    });
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: previous ? "scim.token_regenerated" : "scim.token_created",
      target: prefix,
      data: previous ? { replaced: previous.prefix } : undefined,
    });
    return made;
  });
  return state(row, plaintext);
}

/** DELETE /v1/teams/{team_id}/scim: the identity provider's next request is a 401. */
export async function revokeScimToken(teamId: string, personId: string | null): Promise<void> {
  const person = requirePerson(personId);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, SCIM_TOKEN_ROLE);
    const row = await tx.scimToken.findUnique({ where: { teamId }, select: { id: true, prefix: true } });
    if (!row) return;
    await tx.scimToken.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: "scim.token_revoked",
      target: row.prefix,
    });
  });
}

/** The team a SCIM bearer token acts for, or null (unknown, revoked, or a team no longer). Stamps its last use. */
export async function findScimTeam(plaintext: string): Promise<{ teamId: string; slug: string | null } | null> {
  if (!plaintext.startsWith(SCIM_TOKEN_PREFIX) || plaintext.length > 128) return null;
  const db = await getDb();
  const row = await db.scimToken.findUnique({
    where: { hash: sha256Hex(plaintext) },
    select: { id: true, teamId: true, lastUsedAt: true, team: { select: { kind: true, slug: true } } },
  });
  if (!row || row.team.kind !== "team") return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
    await db.scimToken.updateMany({
      where: {
        id: row.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(now - LAST_USED_RESOLUTION_MS) } }],
      },
      data: { lastUsedAt: new Date(now) },
    });
  return { teamId: row.teamId, slug: row.team.slug };
}
