import { getDb } from "@/lib/db/client";
import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { storableText } from "@/lib/db/storable-text";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { Prisma } from "@/lib/generated/prisma/client";
import { asApiError } from "@/lib/captions/upstream-errors";
import { normalizeFeedUrl } from "@/lib/podcasts/resolve-podcast";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import { followDeps } from "@/lib/follows/deps";
import { rememberNew, resolveFollowSource } from "@/lib/follows/list-source";
import { nextCheckAfterSuccess } from "@/lib/follows/schedule";
import { scheduleNextCheck } from "@/lib/follows/check-pipeline";
import { serializeFollow } from "@/lib/follows/serializers";
import { newSlug } from "@/lib/publishing/slug";
import type { CreateFollowRequest, FollowOut } from "@/lib/follows/schemas";

const INSERT_CHUNK = 500;

function exists(): Error {
  return errors.conflict("follow_exists", "You follow this show already: change that follow or delete it.");
}

function tooMany(): Error {
  const max = env().FOLLOW_MAX_PER_USER;
  return errors.conflict("too_many_follows", `You follow ${max} shows, the most allowed: delete one first.`);
}

/**
 * POST /v1/follows: the source is listed now (a feed that is not a feed, a channel that does not exist: a 4xx
 * here, not a failing follow later), every item it holds is remembered as seen, except the newest `backfill`,
 * which are queued; the first check is scheduled (at once when there is a backfill to start, or a WebSub hub to
 * subscribe at).
 */
export async function createFollow(userId: string, request: CreateFollowRequest): Promise<FollowOut> {
  return (await followOnce(userId, request, "refuse")).follow;
}

/**
 * The account's follow of the show `request.url` names, made as POST /v1/follows makes one when there is none
 * (an alert given a show: lib/alerts/add-show.ts). The show is listed either way: its own URL is what a follow
 * is keyed by (a handle's channel, an Apple link's feed).
 */
export async function followOf(
  userId: string,
  request: CreateFollowRequest,
): Promise<{ follow: FollowOut; created: boolean }> {
  return followOnce(userId, request, "return");
}

async function followOnce(
  userId: string,
  request: CreateFollowRequest,
  existing: "refuse" | "return",
): Promise<{ follow: FollowOut; created: boolean }> {
  const settings = env();
  const db = await getDb();
  const wanted = request.backfill ?? 0;
  if (wanted > settings.FOLLOW_MAX_BACKFILL)
    throw new RequestValidationError([
      {
        type: "less_than_equal",
        loc: ["body", "backfill"],
        msg: `Input should be less than or equal to ${settings.FOLLOW_MAX_BACKFILL}`,
        input: wanted,
        ctx: { le: settings.FOLLOW_MAX_BACKFILL },
      },
    ]);
  // Refused early (no fetch for a user at the limit), and again under the user's lock where the row is written.
  if (existing === "refuse" && (await db.follow.count({ where: { userId } })) >= settings.FOLLOW_MAX_PER_USER)
    throw tooMany();
  const webhookUrl = request.webhook_url ? await checkRequestWebhook(userId, request.webhook_url) : null;
  const deps = followDeps();
  let listed;
  try {
    listed = await resolveFollowSource(normalizeFeedUrl(request.url), deps);
  } catch (error) {
    throw asApiError(error);
  }
  const followed = () => db.follow.findUnique({ where: { userId_url: { userId, url: listed.url } } });
  const before = await followed();
  if (before) {
    if (existing === "refuse") throw exists();
    return { follow: serializeFollow(before), created: false };
  }
  const items = listed.items ?? [];
  const backfill = items.slice(0, wanted);
  await rememberNew(userId, listed, new Set(backfill.map((i) => i.guid)), deps);
  const now = new Date();
  try {
    const follow = await db.$transaction(
      async (tx) => {
        // Creates at once count and insert one after another: the limit holds, whatever runs in parallel.
        await lockUntilCommit(tx, `follows:${userId}`);
        if ((await tx.follow.count({ where: { userId } })) >= settings.FOLLOW_MAX_PER_USER) throw tooMany();
        const created = await tx.follow.create({
          data: {
            userId,
            url: listed.url,
            kind: listed.kind,
            title: listed.title ? storableText(listed.title.slice(0, 500)) : null,
            lang: request.lang,
            format: request.format,
            publish: request.publish ?? false,
            showSlug: newSlug(listed.title),
            webhookUrl,
            etag: listed.validators.etag,
            lastModified: listed.validators.lastModified,
            lastCheckedAt: now,
            nextCheckAt: nextCheckAfterSuccess(now),
            itemsSeen: items.length,
            ...(listed.push ? { pushHub: listed.push.hub, pushTopic: listed.push.topic, pushState: "off" } : {}),
          },
        });
        const rows: Prisma.FollowItemCreateManyInput[] = items.map((item, index) => ({
          followId: created.id,
          guid: item.guid,
          title: storableText(item.title),
          url: item.url,
          durationSeconds: item.durationSeconds,
          publishedAt: item.published ? new Date(item.published) : null,
          audioBytes: item.bytes ?? null,
          status: index < backfill.length ? "queued" : "seen",
        }));
        for (let i = 0; i < rows.length; i += INSERT_CHUNK)
          await tx.followItem.createMany({ data: rows.slice(i, i + INSERT_CHUNK), skipDuplicates: true });
        // A source with a hub gets a first link now: without fetching again (not due), it subscribes for push.
        await scheduleNextCheck(tx, created.id, null, backfill.length > 0 || listed.push ? now : undefined);
        return tx.follow.findUniqueOrThrow({ where: { id: created.id } });
      },
      { timeout: 30_000, maxWait: 20_000 },
    );
    return { follow: serializeFollow(follow), created: true };
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    const raced = existing === "return" ? await followed() : null;
    if (!raced) throw exists();
    return { follow: serializeFollow(raced), created: false };
  }
}
