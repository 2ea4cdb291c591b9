import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import { scheduleNextCheck } from "@/lib/follows/check-pipeline";
import { serializeFollow, serializeFollowItem } from "@/lib/follows/serializers";
import { unsubscribeLater } from "@/lib/follows/push-subscribe";
import type { FollowDetailOut, FollowOut, UpdateFollowRequest } from "@/lib/follows/schemas";
import { expirePublicPages } from "@/lib/cache/public-pages";

const RECENT_ITEMS = 50;

async function findOwn(userId: string, id: string) {
  const db = await getDb();
  const follow = await db.follow.findFirst({ where: { id, userId } });
  if (!follow) throw errors.notFound("No follow with that id.");
  return follow;
}

/** GET /v1/follows: the caller's follows, newest first. */
export async function listFollows(userId: string): Promise<FollowOut[]> {
  const db = await getDb();
  const rows = await db.follow.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(serializeFollow);
}

/** GET /v1/follows/{id}: the follow and its items found last, newest first, with their jobs' outcomes. */
export async function getFollow(userId: string, id: string): Promise<FollowDetailOut> {
  const db = await getDb();
  const follow = await findOwn(userId, id);
  const items = await db.followItem.findMany({
    where: { followId: id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT_ITEMS,
  });
  const jobIds = items.flatMap((i) => (i.status === "running" && i.jobId ? [i.jobId] : []));
  const jobs = jobIds.length
    ? await db.job.findMany({
        where: { id: { in: jobIds } },
        select: { id: true, status: true, transcriptId: true, errorMessage: true },
      })
    : [];
  const byId = new Map(jobs.map((j) => [j.id, j]));
  return {
    ...serializeFollow(follow),
    items: items.map((i) => serializeFollowItem(i, i.jobId ? byId.get(i.jobId) : undefined)),
  };
}

/** Starts a new link of the follow's check chain due now (the older link, if any, then ends by itself). */
export async function checkSoon(followId: string): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const follow = await tx.follow.update({ where: { id: followId }, data: { nextCheckAt: new Date() } });
    await scheduleNextCheck(tx, followId, follow.checkJobId, new Date());
  });
}

/** PATCH /v1/follows/{id}: pause, resume (checked at once), or change its settings. */
export async function updateFollow(userId: string, id: string, request: UpdateFollowRequest): Promise<FollowOut> {
  const db = await getDb();
  const follow = await findOwn(userId, id);
  const webhookUrl =
    request.webhook_url === undefined
      ? undefined
      : request.webhook_url === null
        ? null
        : await checkRequestWebhook(userId, request.webhook_url);
  const resume = request.state === "active" && follow.state === "paused";
  const pause = request.state === "paused" && follow.state !== "paused";
  await db.follow.update({
    where: { id },
    data: {
      ...(request.lang !== undefined ? { lang: request.lang } : {}),
      ...(request.format !== undefined ? { format: request.format } : {}),
      ...(request.publish !== undefined ? { publish: request.publish } : {}),
      ...(webhookUrl !== undefined ? { webhookUrl } : {}),
      ...(request.state === "paused" ? { state: "paused", note: null } : {}),
      ...(pause && follow.pushHub ? { pushState: "off", pushLeaseEndsAt: null, pushNote: null } : {}),
      ...(resume ? { state: "active", note: null, failures: 0 } : {}),
    },
  });
  if (resume) await checkSoon(id);
  if (pause) unsubscribeLater(follow);
  return serializeFollow(await findOwn(userId, id));
}

/**
 * DELETE /v1/follows/{id}: the follow and its items go; transcripts it made stay in the history. Its hub, if
 * any, is asked to stop pushing (the callback then confirms that, the follow being gone).
 */
export async function deleteFollow(userId: string, id: string): Promise<void> {
  const db = await getDb();
  const follow = await db.follow.findFirst({
    where: { id, userId },
    select: { id: true, pushHub: true, pushTopic: true, pushState: true, pushToken: true },
  });
  // Its published episodes' pages name the show and link to its page, which goes with the follow: they are
  // rendered again without it, and the show leaves the sitemap.
  const episodes = follow
    ? await db.$queryRaw<{ slug: string }[]>`
        SELECT p."slug" FROM "FollowItem" i
        JOIN "Publication" p ON p."transcriptId" = i."transcriptId" AND p."userId" = ${userId}
        WHERE i."followId" = ${follow.id} AND i."status" = 'done' AND p."publishedAt" IS NOT NULL`
    : [];
  const deleted = await db.follow.deleteMany({ where: { id, userId } });
  if (deleted.count === 0 || !follow) throw errors.notFound("No follow with that id.");
  unsubscribeLater(follow);
  if (episodes.length > 0) expirePublicPages(episodes.map((episode) => episode.slug));
}

/** POST /v1/follows/{id}/check: checked as soon as a runner is free (the answer does not wait for it). */
export async function checkFollowNow(userId: string, id: string): Promise<FollowOut> {
  const follow = await findOwn(userId, id);
  if (follow.state === "paused")
    throw errors.conflict("follow_paused", "This follow is paused: resume it to check it.");
  await checkSoon(id);
  return serializeFollow(await findOwn(userId, id));
}
