import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";

// Sessions that can be ended. The session cookie stays an Auth.js JWT (the development login needs JWT
// sessions), but each one names a row of the Session table (its `sid` claim = Session.sessionToken),
// created at sign-in. A cookie counts only while its row exists: sign-out deletes the row, "sign out
// everywhere" deletes all of the user's rows, and the old cookie stops working at once, in API routes
// (session.ts) and in pages (the jwt callback in nextauth.ts) alike. One indexed lookup per use.

/** Auth.js's default session lifetime, which the cookie also has. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
// A row's expiry follows the (rolling) cookie, moved forward at most once a day.
const EXTEND_AFTER_MS = 24 * 3600 * 1000;

/** How a session was made: the Auth.js provider's id, kept on its row. */
export type SessionMethod = string;

/** The one method that counts as the identity provider's (lib/auth/oidc.ts's provider id). */
const PROVIDER_METHOD = "oidc";

/**
 * When a session made at `confirmedAt` ends: the rolling lifetime, and for one made through the identity provider
 * no later than OIDC_SESSION_MAX_AGE_HOURS after the provider confirmed the person (then it signs in again, and a
 * person removed there is refused).
 */
export function sessionExpiry(method: SessionMethod | null, confirmedAt: Date | null, now: Date): Date {
  const rolling = now.getTime() + SESSION_MAX_AGE_SECONDS * 1000;
  if (method !== PROVIDER_METHOD || !confirmedAt) return new Date(rolling);
  return new Date(Math.min(rolling, confirmedAt.getTime() + env().OIDC_SESSION_MAX_AGE_HOURS * 3600 * 1000));
}

/** Starts a session for `userId` made by `method` and returns its id (the JWT's `sid`). Removes expired rows. */
export async function startSession(
  userId: string,
  method: SessionMethod | null = null,
  now = new Date(),
): Promise<string> {
  const db = await getDb();
  const sid = randomBytes(24).toString("base64url");
  const confirmedAt = method === PROVIDER_METHOD ? now : null;
  await db.session.deleteMany({ where: { userId, expires: { lt: now } } });
  await db.session.create({
    data: { sessionToken: sid, userId, method, confirmedAt, expires: sessionExpiry(method, confirmedAt, now) },
  });
  return sid;
}

/** A live session: whose, and how it was made (null for one made before methods were kept). */
export interface ActiveSession {
  userId: string;
  method: SessionMethod | null;
}

/** The session `sid` of `userId` while it has not been ended (nor expired), or null. */
export async function activeSession(sid: unknown, userId: unknown): Promise<ActiveSession | null> {
  if (typeof sid !== "string" || typeof userId !== "string" || sid.length > 128) return null;
  const db = await getDb();
  // Every cookie-authenticated request runs this: a raw lookup on the unique index skips the ORM's work.
  const rows = await db.$queryRaw<{ userId: string; method: string | null }[]>`
    SELECT "userId", "method" FROM "Session" WHERE "sessionToken" = ${sid} AND "expires" > now()`;
  return rows[0]?.userId === userId ? { userId, method: rows[0].method } : null;
}

/** True while the session `sid` of `userId` has not been ended (nor expired). */
export async function isSessionActive(sid: unknown, userId: unknown): Promise<boolean> {
  return (await activeSession(sid, userId)) !== null;
}

/** Whether a session made by `method` came through the identity provider. */
export function cameThroughProvider(method: SessionMethod | null | undefined): boolean {
  return method === PROVIDER_METHOD;
}

/** For the jwt callback: like isSessionActive, and moves the row's expiry along with the rolling cookie. */
export async function touchSession(sid: unknown, userId: unknown, now = new Date()): Promise<boolean> {
  if (typeof sid !== "string" || typeof userId !== "string") return false;
  const db = await getDb();
  const row = await db.session.findUnique({
    where: { sessionToken: sid },
    select: { userId: true, expires: true, method: true, confirmedAt: true },
  });
  if (!row || row.userId !== userId || row.expires <= now) return false;
  const expires = sessionExpiry(row.method, row.confirmedAt, now);
  if (expires.getTime() - row.expires.getTime() > EXTEND_AFTER_MS) {
    await db.session.updateMany({ where: { sessionToken: sid }, data: { expires } });
  }
  return true;
}

/** Ends one session (sign-out). */
export async function endSession(sid: unknown): Promise<void> {
  if (typeof sid !== "string") return;
  const db = await getDb();
  await db.session.deleteMany({ where: { sessionToken: sid } });
}

/** Ends every session of the user ("sign out everywhere"); API keys and OAuth tokens are not touched. */
export async function endAllSessions(userId: string): Promise<{ ended: number }> {
  const db = await getDb();
  const { count } = await db.session.deleteMany({ where: { userId } });
  return { ended: count };
}
