import { getDb } from "@/lib/db/client";
import { hotQuery } from "@/lib/db/hot-sql";
import type { AccountKind, ApiKey, Prisma, Tier } from "@/lib/generated/prisma/client";
import { getLiveTier } from "@/lib/billing/get-live-tier";
import { randomSecret, sha256Hex } from "@/lib/auth/tokens";
import { serializeApiKeyState, type ApiKeyState } from "@/lib/auth/serializers";
import { errors } from "@/lib/http/errors";
import { KEY_ROLE, lockTeam, roleIn } from "@/lib/membership/access";

// The contract's single key slot: one ApiKey row per user (unique userId), only its SHA-256 stored.

export const API_KEY_PREFIX = "vbt_";
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

function newKey() {
  const plaintext = randomSecret(API_KEY_PREFIX, 32);
  return { plaintext, hash: sha256Hex(plaintext), prefix: plaintext.slice(0, DISPLAY_LENGTH) };
}

/**
 * GET /v1/me/api-key. A caller who authenticated with the key itself brings the key row and tier read by
 * that lookup (findApiKeyCaller): nothing more is read.
 */
export async function getApiKeyState(userId: string, known?: { apiKey?: ApiKey; tier?: Tier }): Promise<ApiKeyState> {
  if (known?.apiKey && known.tier) return serializeApiKeyState(known.apiKey, known.tier);
  const db = await getDb();
  // One round trip: the key and the tier together.
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { apiKey: true, subscription: { select: { tier: true } } },
  });
  return serializeApiKeyState(user?.apiKey ?? null, user?.subscription?.tier ?? "free");
}

type Tx = Prisma.TransactionClient;

/** Who asks for a key: the person behind the credential (null: a team's key, replacing itself) and that key's row. */
export interface KeyAsker {
  personId: string | null;
  apiKey?: { id: string };
}

/**
 * Writes `userId`'s key slot. A team's is written under the team's lock, with the asker's right read again there:
 * the person's role, or, for the team's key replacing itself, that it is still the team's key. Removing a member
 * who could read the key revokes it under the same lock (lib/membership/role-loss.ts), so no key is made or shown to
 * someone whose removal committed first.
 */
async function writeKeySlot<T>(userId: string, asker: KeyAsker, write: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  if (asker.personId === userId) return write(db);
  return db.$transaction(async (tx) => {
    await lockTeam(tx, userId);
    if (asker.personId) await roleIn(tx, userId, asker.personId, KEY_ROLE);
    else if (!asker.apiKey || !(await tx.apiKey.findFirst({ where: { id: asker.apiKey.id, userId } })))
      throw errors.invalidToken();
    return write(tx);
  });
}

/** Creates the account's key if there is none; the plaintext is returned only by the call that created it. */
export async function ensureApiKey(userId: string, asker: KeyAsker = { personId: userId }): Promise<ApiKeyState> {
  const db = await getDb();
  const key = newKey();
  try {
    const { row, plaintext } = await writeKeySlot(userId, asker, async (tx) => {
      const existing = await tx.apiKey.findUnique({ where: { userId } });
      if (existing) return { row: existing, plaintext: undefined };
      const created = await tx.apiKey.create({ data: { userId, hash: key.hash, prefix: key.prefix } });
      return { row: created, plaintext: key.plaintext };
    });
    return serializeApiKeyState(row, await getLiveTier(userId), plaintext);
  } catch (error) {
    // A concurrent ensure won the unique userId slot: answer with its key, without plaintext. (Prisma's
    // code, not its error class: importing the class would load Prisma with every module that imports this.)
    if ((error as { code?: unknown } | null)?.code === "P2002") {
      const winner = await db.apiKey.findUniqueOrThrow({ where: { userId } });
      return serializeApiKeyState(winner, await getLiveTier(userId));
    }
    throw error;
  }
}

/** Replaces the key in one statement; the old hash no longer matches anything from the next request on. */
export async function regenerateApiKey(userId: string, asker: KeyAsker = { personId: userId }): Promise<ApiKeyState> {
  const key = newKey();
  const row = await writeKeySlot(userId, asker, (tx) =>
    tx.apiKey.upsert({
      where: { userId },
      create: { userId, hash: key.hash, prefix: key.prefix },
      update: { hash: key.hash, prefix: key.prefix, createdAt: new Date(), lastUsedAt: null },
    }),
  );
  return serializeApiKeyState(row, await getLiveTier(userId), key.plaintext);
}

/** How stale `lastUsedAt` may get: a key used all day costs one small write a minute, not one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Who an API key belongs to: the account (a person's or a team's), its tier and the key row, as of this request. */
export interface ApiKeyCaller {
  userId: string;
  /** A team's key acts in the team with no one person behind it. */
  accountKind: AccountKind;
  /** The team's name and slug (a person's own: null). */
  accountName: string | null;
  accountSlug: string | null;
  tier: Tier;
  apiKey: ApiKey;
}

/**
 * The caller an API key belongs to, or null; the user's tier comes with it (one indexed join, the only
 * query an API-key request needs to know who is calling and which limits apply). Nothing is cached, so a
 * regenerated key stops working on the next request in every process. Stamps the key's last use (at most
 * once a minute).
 */
export async function findApiKeyCaller(plaintext: string): Promise<ApiKeyCaller | null> {
  if (!plaintext.startsWith(API_KEY_PREFIX) || plaintext.length > 128) return null;
  // Every API request runs this: a prepared, indexed lookup that skips the ORM (lib/db/hot-sql.ts).
  const rows = await hotQuery<
    ApiKey & { tier: Tier | null; accountKind: AccountKind; accountName: string | null; accountSlug: string | null }
  >(
    "api-key-caller",
    `SELECT k."id", k."userId", k."hash", k."prefix", k."createdAt", k."lastUsedAt", s."tier", u."kind" AS "accountKind",
       u."name" AS "accountName", u."slug" AS "accountSlug"
     FROM "ApiKey" k JOIN "User" u ON u."id" = k."userId" LEFT JOIN "Subscription" s ON s."userId" = k."userId"
     WHERE k."hash" = $1`,
    [sha256Hex(plaintext)],
  );
  const row = rows[0];
  if (!row) return null;
  const { tier, accountKind, accountName, accountSlug, ...apiKey } = row;
  const now = Date.now();
  if (!apiKey.lastUsedAt || now - apiKey.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional, so concurrent requests stamp it once.
    const staleBefore = new Date(now - LAST_USED_RESOLUTION_MS);
    const db = await getDb();
    await db.$executeRaw`
      UPDATE "ApiKey" SET "lastUsedAt" = ${new Date(now)}
      WHERE "id" = ${apiKey.id} AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ${staleBefore})`;
    apiKey.lastUsedAt = new Date(now);
  }
  return {
    userId: apiKey.userId,
    accountKind,
    accountName: accountKind === "team" ? accountName : null,
    accountSlug: accountKind === "team" ? accountSlug : null,
    tier: tier ?? "free",
    apiKey,
  };
}
