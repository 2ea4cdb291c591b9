import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { dbKind, getDb } from "@/lib/db/client";

// One upstream fetch per key across every app process on one PostgreSQL: the first request claims a
// `CaptionFetch` row (a lease, renewed while it works) and fetches; the others poll for what it stored, or
// for the failure or unstored result (e.g. "no captions") it left on the row a few seconds for them (a
// request arriving after that asks again). A crashed owner's lease runs out after
// LEASE_MS and the next request takes over. With the embedded PGlite there is only this process, and the
// caller's in-process coalescing is enough.

const LEASE_MS = 10_000;
const RENEW_MS = 3_000;
/** How long a failure is handed to the requests that waited (and to any arriving meanwhile). */
const FAILURE_KEEP_MS = 3_000;
const POLL_FIRST_MS = 25;
const POLL_MAX_MS = 250;

const OWNER = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

export interface SharedFetch<T> {
  /** The stored result when it is there and fresh (another process may have just stored it). */
  findFresh(): Promise<T | null>;
  /** Asks upstream and stores the result. */
  fetch(): Promise<T>;
  /** A failure other processes should see as JSON, or null to let the next request try again itself. */
  encodeFailure(error: unknown): object | null;
  decodeFailure(failure: unknown): Error;
  /** A result that is not stored (findFresh cannot see it) as JSON for the waiting requests, else null. */
  encodeUnstored?(result: T): object | null;
  decodeUnstored?(unstored: unknown): T;
}

/** What the lead leaves on the row (its "failure" column) for the requests that waited. */
type HandedOver = { unstored: object } | object;

export async function fetchShared<T>(key: string, work: SharedFetch<T>): Promise<T> {
  if ((await dbKind()) === "pglite") return work.fetch();
  const db = await getDb();
  let pollMs = POLL_FIRST_MS;
  // A new request asks again even when a failure is on the row (it is for the requests that waited on it).
  for (let arriving = true; ; arriving = false) {
    const claimed = await db.$queryRaw<{ owner: string }[]>`
      INSERT INTO "CaptionFetch" ("key", "owner", "expiresAt") VALUES (${key}, ${OWNER}, now() + ${LEASE_MS} * interval '1 millisecond')
      ON CONFLICT ("key") DO UPDATE SET "owner" = EXCLUDED."owner", "expiresAt" = EXCLUDED."expiresAt", "failure" = NULL
      WHERE "CaptionFetch"."expiresAt" <= now() OR (${arriving} AND "CaptionFetch"."failure" IS NOT NULL)
      RETURNING "owner"`;
    if (claimed.length > 0) return lead(key, work);
    const fresh = await work.findFresh();
    if (fresh) return fresh;
    const [row] = await db.$queryRaw<
      { failure: HandedOver | null }[]
    >`SELECT "failure" FROM "CaptionFetch" WHERE "key" = ${key} AND "expiresAt" > now()`;
    if (row?.failure && "unstored" in row.failure && work.decodeUnstored)
      return work.decodeUnstored(row.failure.unstored);
    if (row?.failure) throw work.decodeFailure(row.failure);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(POLL_MAX_MS, pollMs * 2);
  }
}

async function lead<T>(key: string, work: SharedFetch<T>): Promise<T> {
  const db = await getDb();
  const renew = setInterval(() => {
    db.$executeRaw`UPDATE "CaptionFetch" SET "expiresAt" = now() + ${LEASE_MS} * interval '1 millisecond' WHERE "key" = ${key} AND "owner" = ${OWNER}`.catch(
      () => undefined,
    );
  }, RENEW_MS);
  renew.unref?.();
  try {
    // Another process may have stored it between our look and our claim.
    const result = (await work.findFresh()) ?? (await work.fetch());
    clearInterval(renew);
    const unstored = work.encodeUnstored?.(result) ?? null;
    if (unstored === null) await db.$executeRaw`DELETE FROM "CaptionFetch" WHERE "key" = ${key} AND "owner" = ${OWNER}`;
    else await handOver(key, { unstored }).catch(() => undefined);
    return result;
  } catch (error) {
    clearInterval(renew);
    const failure = work.encodeFailure(error);
    await (
      failure === null
        ? db.$executeRaw`DELETE FROM "CaptionFetch" WHERE "key" = ${key} AND "owner" = ${OWNER}`
        : handOver(key, failure)
    ).catch(() => undefined);
    throw error;
  }
}

/** Leaves `value` on the row for FAILURE_KEEP_MS, for the requests that waited on this fetch. */
async function handOver(key: string, value: HandedOver): Promise<void> {
  const db = await getDb();
  await db.$executeRaw`UPDATE "CaptionFetch" SET "failure" = ${JSON.stringify(value)}::jsonb, "expiresAt" = now() + ${FAILURE_KEEP_MS} * interval '1 millisecond'
    WHERE "key" = ${key} AND "owner" = ${OWNER}`;
}
