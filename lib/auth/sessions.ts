import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";

// Sessions that can be ended. The session cookie stays an Auth.js JWT (the development login needs JWT
// sessions), but each one names a row of the Session table (its `sid` claim = Session.sessionToken),
// created at sign-in. A cookie counts only while its row exists: sign-out deletes the row, "sign out
// everywhere" deletes all of the user's rows, and the old cookie stops working at once, in API routes
// (session.ts) and in pages (the jwt callback in nextauth.ts) alike. One indexed lookup per use.

/** Auth.js's default session lifetime, which the cookie also has. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
// A row's expiry follows the (rolling) cookie, moved forward at most once a day.
const EXTEND_AFTER_MS = 24 * 3600 * 1000;

/** Starts a session for `userId` and returns its id (the JWT's `sid`). Removes the user's expired rows. */
export async function startSession(userId: string, now = new Date()): Promise<string> {
  const db = await getDb();
  const sid = randomBytes(24).toString("base64url");
  await db.session.deleteMany({ where: { userId, expires: { lt: now } } });
  await db.session.create({
    data: { sessionToken: sid, userId, expires: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000) },
  });
  return sid;
}

/** True while the session `sid` of `userId` has not been ended (nor expired). */
export async function isSessionActive(sid: unknown, userId: unknown): Promise<boolean> {
  if (typeof sid !== "string" || typeof userId !== "string" || sid.length > 128) return false;
  const db = await getDb();
  // Every cookie-authenticated request runs this: a raw lookup on the unique index skips the ORM's work.
  const rows = await db.$queryRaw<{ userId: string }[]>`
    SELECT "userId" FROM "Session" WHERE "sessionToken" = ${sid} AND "expires" > now()`;
  return rows[0]?.userId === userId;
}

/** For the jwt callback: like isSessionActive, and moves the row's expiry along with the rolling cookie. */
export async function touchSession(sid: unknown, userId: unknown, now = new Date()): Promise<boolean> {
  if (typeof sid !== "string" || typeof userId !== "string") return false;
  const db = await getDb();
  const row = await db.session.findUnique({ where: { sessionToken: sid }, select: { userId: true, expires: true } });
  if (!row || row.userId !== userId || row.expires <= now) return false;
  const expires = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
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
