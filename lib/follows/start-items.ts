import { getDb } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { ApiError } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import type { Follow, FollowItem, Prisma } from "@/lib/generated/prisma/client";
import { asApiError } from "@/lib/captions/upstream-errors";
import { usagePlan } from "@/lib/usage/charge";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { publishTranscript } from "@/lib/publishing/publish";
import { log } from "@/lib/observability/logger";
import { itemSource } from "@/lib/imports/list-source";
import { followDeps } from "@/lib/follows/deps";
import { emitItemEvent } from "@/lib/follows/item-events";

/** A claimed item with no job after this long was lost between claim and start (a crash): queued again. */
const UNSTARTED_MS = 15_000;
/** Items started by one check at most (a follow's backfill is bounded below this). */
const START_PER_CHECK = 100;

export interface Started {
  started: number;
  /** The allowance ran out: the follow is paused until the next period. */
  allowance: boolean;
}

/** The follow was paused or deleted while its check was starting items: nothing more is started. */
class FollowStopped extends Error {
  override readonly name = "FollowStopped";
}

/**
 * In the transaction that charges for an item: the follow still exists and is not paused, and its row stays
 * locked (FOR SHARE) until the charge commits, so a pause or a delete either comes first and nothing is
 * charged, or waits for this item.
 */
function followStillWants(followId: string) {
  return async (tx: Prisma.TransactionClient): Promise<void> => {
    const [row] = await tx.$queryRaw<{ state: string }[]>`
      SELECT "state" FROM "Follow" WHERE "id" = ${followId} FOR SHARE`;
    if (!row || row.state === "paused") throw new FollowStopped();
  };
}

/** The item's source as POST /v1/transcript takes it: an episode's audio, or a video's page. */
function requestFor(item: Pick<FollowItem, "url">) {
  const source = itemSource({ url: item.url, kind: "audio" }, followDeps().allowPrivateFor);
  const audio = source?.platform === "podcast";
  return { url: audio ? "" : item.url, audio: audio ? item.url : null };
}

/** After an item is done: published when the follow asks for it (a failure to publish is logged, not fatal). */
async function afterDone(follow: Follow, item: Pick<FollowItem, "url" | "id">): Promise<void> {
  if (!follow.publish) return;
  try {
    await publishTranscript(follow.userId, { url: item.url, lang: follow.lang }, transcriptDeps());
  } catch (error) {
    log.warn({ followId: follow.id, itemId: item.id, err: error }, "could not publish a followed item");
  }
}

/**
 * Starts the follow's queued items, each exactly as POST /v1/transcript would (history entry, reservation, one
 * charge). An item is claimed first (queued → running, a conditional update), so two checks at once never start
 * it twice. When the allowance runs out the item goes back to the queue and the follow pauses until the next
 * period, saying so.
 */
export async function startQueued(follow: Follow): Promise<Started> {
  const db = await getDb();
  await db.followItem.updateMany({
    where: {
      followId: follow.id,
      status: "running",
      jobId: null,
      updatedAt: { lt: new Date(Date.now() - UNSTARTED_MS) },
    },
    data: { status: "queued" },
  });
  const queued = await db.followItem.findMany({
    where: { followId: follow.id, status: "queued" },
    orderBy: { createdAt: "asc" },
    take: START_PER_CHECK,
  });
  let started = 0;
  for (const item of queued) {
    // Claimed only while the follow is not paused (a pause during a check stops what is left of it).
    const claimed = await db.followItem.updateMany({
      where: { id: item.id, status: "queued", follow: { state: { not: "paused" } } },
      data: { status: "running", jobId: null },
    });
    if (claimed.count === 0) {
      if (await stopped(follow.id)) break;
      continue;
    }
    started++;
    try {
      const outcome = await requestTranscript(
        follow.userId,
        {
          ...requestFor(item),
          upload: null,
          lang: follow.lang,
          format: "json",
          ...(follow.webhookUrl ? { webhook_url: follow.webhookUrl } : {}),
        },
        transcriptDeps(),
        {
          estimateSeconds: item.durationSeconds,
          skipJobRateLimit: true,
          followId: follow.id,
          guard: followStillWants(follow.id),
          ...(follow.kind === "podcast" ? { title: item.title, channel: follow.title } : {}),
        },
      );
      if (outcome.kind === "job") {
        await db.followItem.updateMany({
          where: { id: item.id, status: "running" },
          data: { jobId: outcome.job.jobId },
        });
        continue;
      }
      const done = await db.followItem.updateMany({
        where: { id: item.id, status: "running" },
        data: { status: "done", transcriptId: outcome.transcript.id, note: outcome.transcript.source_note ?? null },
      });
      if (done.count > 0) {
        await emitItemEvent(follow, item, { transcriptId: outcome.transcript.id, transcript: outcome.transcript });
        await afterDone(follow, item);
      }
    } catch (error) {
      if (error instanceof FollowStopped) {
        await db.followItem.updateMany({ where: { id: item.id, status: "running" }, data: { status: "queued" } });
        return { started: started - 1, allowance: false };
      }
      const api = asApiError(error);
      if (api instanceof ApiError && api.code === "allowance_exhausted") {
        await db.followItem.updateMany({ where: { id: item.id, status: "running" }, data: { status: "queued" } });
        await pauseForAllowance(follow.id, follow.userId, api.detail);
        return { started: started - 1, allowance: true };
      }
      let note: string;
      if (api instanceof ApiError) note = api.detail;
      else if (api instanceof RequestValidationError) note = api.items[0]?.msg ?? "This item cannot be transcribed.";
      else throw error;
      const failed = await db.followItem.updateMany({
        where: { id: item.id, status: "running" },
        data: { status: "failed", note: storableText(note.slice(0, 1000)) },
      });
      if (failed.count > 0)
        await emitItemEvent(follow, item, {
          error: { code: api instanceof ApiError ? api.code : "invalid_source", message: note },
        });
    }
  }
  return { started, allowance: false };
}

async function stopped(followId: string): Promise<boolean> {
  const db = await getDb();
  const follow = await db.follow.findUnique({ where: { id: followId }, select: { state: true } });
  return !follow || follow.state === "paused";
}

/** The follow waits for the next period of the user's allowance, and says so. */
async function pauseForAllowance(followId: string, userId: string, detail: string): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    const plan = await usagePlan(tx, userId);
    await tx.follow.updateMany({
      where: { id: followId, state: { not: "paused" } },
      data: {
        state: "allowance",
        note: storableText(
          `Paused: the allowance for this period is used up (${detail.slice(0, 300)}). New items wait and are transcribed when the next period starts, ${plan.window.end.toISOString().slice(0, 10)}.`,
        ),
        nextCheckAt: plan.window.end,
      },
    });
  });
}

/** Running items whose jobs ended: done (published when asked) or failed with the job's reason. */
export async function syncRunning(follow: Follow): Promise<number> {
  const db = await getDb();
  const running = await db.followItem.findMany({
    where: { followId: follow.id, status: "running", jobId: { not: null } },
  });
  if (running.length === 0) return 0;
  const jobs = await db.job.findMany({
    where: { id: { in: running.map((r) => r.jobId!) } },
    select: { id: true, status: true, errorMessage: true, transcriptId: true },
  });
  const byId = new Map(jobs.map((j) => [j.id, j]));
  let open = 0;
  for (const item of running) {
    const job = byId.get(item.jobId!);
    if (job?.status === "done") {
      const done = await db.followItem.updateMany({
        where: { id: item.id, status: "running" },
        data: { status: "done", transcriptId: job.transcriptId },
      });
      if (done.count > 0) await afterDone(follow, item);
    } else if (!job || job.status === "error") {
      const note = job?.errorMessage ?? "The transcription job is gone.";
      await db.followItem.updateMany({
        where: { id: item.id, status: "running" },
        data: { status: "failed", note: storableText(note.slice(0, 1000)) },
      });
    } else open++;
  }
  return open;
}
