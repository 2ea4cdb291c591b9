import { getDb } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { ApiError } from "@/lib/http/errors";
import { Prisma, type Follow } from "@/lib/generated/prisma/client";
import { asApiError } from "@/lib/captions/upstream-errors";
import type { SourceItem } from "@/lib/imports/list-source";
import { followDeps } from "@/lib/follows/deps";
import { listForCheck, rememberNew, type Listed } from "@/lib/follows/list-source";
import { nextCheckAfterFailure, nextCheckAfterSuccess, nextCheckWhilePushed } from "@/lib/follows/schedule";
import { ensurePush, pushLive } from "@/lib/follows/push-subscribe";
import { startQueued, syncRunning } from "@/lib/follows/start-items";

const INSERT_CHUNK = 500;

export interface CheckResult {
  /** Fetched the feed or listed the channel (false: only items in progress were looked at). */
  fetched: boolean;
  requests: number;
  bytes: number;
  /** Items found that the follow had not listed before. */
  found: number;
  /** Items started now (new ones, and earlier ones that waited). */
  started: number;
  /** Items still being transcribed. */
  running: number;
  error?: string;
}

/**
 * Item rows for what a listing holds that the follow has not seen, claimed by (followId, guid) with INSERT … ON
 * CONFLICT DO NOTHING: a check that runs twice, or two at once, creates each row once. `status` says what a new
 * row becomes ("queued" to be transcribed, "seen" to be remembered only). Returns the guids it did not know.
 */
export async function recordItems(
  followId: string,
  items: readonly SourceItem[],
  status: (item: SourceItem, index: number) => "queued" | "seen",
): Promise<Set<string>> {
  const db = await getDb();
  const known = new Set(
    (await db.followItem.findMany({ where: { followId }, select: { guid: true } })).map((r) => r.guid),
  );
  const rows: Prisma.FollowItemCreateManyInput[] = [];
  items.forEach((item, index) => {
    if (known.has(item.guid)) return;
    rows.push({
      followId,
      guid: item.guid,
      title: item.title,
      url: item.url,
      durationSeconds: item.durationSeconds,
      publishedAt: item.published ? new Date(item.published) : null,
      audioBytes: item.bytes ?? null,
      status: status(item, index),
    });
  });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await db.followItem.createMany({ data: rows.slice(i, i + INSERT_CHUNK), skipDuplicates: true });
  return new Set(rows.map((r) => r.guid));
}

async function recordFailure(follow: Follow, error: unknown): Promise<string> {
  const api = asApiError(error);
  if (!(api instanceof ApiError)) throw error;
  const db = await getDb();
  const failures = follow.failures + 1;
  const note = storableText(`The last check failed (${failures} in a row): ${api.detail}`.slice(0, 1000));
  await db.follow.updateMany({
    where: { id: follow.id, state: { in: ["active", "failing"] } },
    data: { state: "failing", note, failures, lastCheckedAt: new Date(), nextCheckAt: nextCheckAfterFailure(failures) },
  });
  return api.detail;
}

/** The push source a listing names, when it differs from the follow's: a new topic starts unsubscribed. */
function pushChange(follow: Follow, listed: Listed): Prisma.FollowUpdateManyMutationInput {
  if (listed.push === undefined) return {};
  const hub = listed.push?.hub ?? null;
  const topic = listed.push?.topic ?? null;
  if (hub === follow.pushHub && topic === follow.pushTopic) return {};
  return { pushHub: hub, pushTopic: topic, pushState: hub ? "off" : null, pushLeaseEndsAt: null, pushNote: null };
}

/**
 * The listing's facts on the follow: when, what next (later while pushes arrive), its validators, where it can be
 * pushed from, a permanent move, a title, no failure.
 */
async function recordSuccess(follow: Follow, listed: Listed): Promise<void> {
  const db = await getDb();
  const itemsSeen = await db.followItem.count({ where: { followId: follow.id } });
  const push = pushChange(follow, listed);
  const live = !("pushHub" in push) && pushLive(follow);
  const data: Prisma.FollowUpdateManyMutationInput = {
    lastCheckedAt: new Date(),
    nextCheckAt:
      live && follow.pushLeaseEndsAt ? nextCheckWhilePushed(follow.pushLeaseEndsAt) : nextCheckAfterSuccess(),
    failures: 0,
    itemsSeen,
    etag: listed.validators.etag,
    lastModified: listed.validators.lastModified,
    ...push,
    ...(listed.title ? { title: storableText(listed.title.slice(0, 500)) } : {}),
  };
  const where = { id: follow.id };
  await db.follow.updateMany({ where, data });
  await db.follow.updateMany({ where: { ...where, state: "failing" }, data: { state: "active", note: null } });
  if (listed.moved && listed.url !== follow.url) {
    try {
      await db.follow.updateMany({ where, data: { url: listed.url } });
    } catch (error) {
      // The user follows the new address already: this follow keeps the old one (it still leads there).
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") throw error;
    }
  }
}

/**
 * One check of a follow: fetch (conditionally) or list its source, remember what is new, start what is queued,
 * note the outcome on the follow (a failure backs the next check off and says why), and subscribe for push
 * where the source names a hub and that is due (push-subscribe.ts). `fetch: false` only
 * settles the items in progress and starts those waiting. A paused follow is left alone.
 */
export async function checkFollow(
  followId: string,
  options: { fetch?: boolean; signal?: AbortSignal } = {},
): Promise<CheckResult> {
  const db = await getDb();
  const result: CheckResult = { fetched: false, requests: 0, bytes: 0, found: 0, started: 0, running: 0 };
  let follow = await db.follow.findUnique({ where: { id: followId } });
  if (!follow || follow.state === "paused") return result;
  if (follow.state === "allowance") {
    if (follow.nextCheckAt && follow.nextCheckAt > new Date()) return result;
    await db.follow.updateMany({ where: { id: followId, state: "allowance" }, data: { state: "active", note: null } });
    follow = { ...follow, state: "active", note: null };
  }
  if (options.fetch !== false) {
    const deps = { ...followDeps(), ...(options.signal ? { signal: options.signal } : {}) };
    let listed: Listed;
    try {
      listed = await listForCheck(follow, deps);
    } catch (error) {
      result.error = await recordFailure(follow, error);
      return result;
    }
    result.fetched = true;
    result.requests = listed.requests;
    result.bytes = listed.bytes;
    if (listed.items) {
      const fresh = await recordItems(follow.id, listed.items, () => "queued");
      result.found = fresh.size;
      await rememberNew(follow.userId, listed, fresh, deps);
    }
    await recordSuccess(follow, listed);
  }
  result.running = await syncRunning(follow);
  const started = await startQueued(follow);
  result.started = started.started;
  result.running += started.started;
  await ensurePush(follow.id, options.signal);
  return result;
}
