import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { definePipeline, type StepContext } from "@/lib/jobs/pipeline";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { checkFollow } from "@/lib/follows/check-follow";
import { nextCheckAfterFailure, SETTLE_MS } from "@/lib/follows/schedule";

// A follow's checks as a chain of short jobs, one link at a time: each link checks (or, while items are being
// transcribed and the feed is not due, only settles them) and its onSuccess/onFailure enqueues the next link
// for the follow's next_check_at, in the transaction that finishes this one. `Follow.checkJobId` names the live
// link: "check now", resume and a new follow start a new link and name it, so an older one that still runs does
// nothing and ends its chain there. Only one chain per follow can ever go on.

export const FOLLOW_CHECK_PIPELINE = "follow-check";

const contextSchema = z.object({
  followId: z.string().min(1),
  userId: z.string().min(1),
  /** Set by the step: this link is no longer the follow's live one. */
  stale: z.boolean().optional(),
});

export type FollowCheckContext = z.infer<typeof contextSchema>;

async function check(ctx: FollowCheckContext, io: StepContext): Promise<Partial<FollowCheckContext>> {
  const db = await getDb();
  const follow = await db.follow.findUnique({
    where: { id: ctx.followId },
    select: { checkJobId: true, nextCheckAt: true },
  });
  if (!follow || follow.checkJobId !== io.jobId) return { stale: true };
  const due = !follow.nextCheckAt || follow.nextCheckAt.getTime() <= Date.now() + 1000;
  await checkFollow(ctx.followId, { fetch: due, signal: io.signal });
  return {};
}

/** The next link, due at the follow's next check (sooner while its items are being transcribed). */
export async function scheduleNextCheck(
  tx: Prisma.TransactionClient,
  followId: string,
  after: string | null,
  at?: Date,
) {
  const follow = await tx.follow.findUnique({ where: { id: followId } });
  if (!follow || follow.checkJobId !== after) return null;
  if (follow.state === "paused") {
    await tx.follow.updateMany({ where: { id: followId, checkJobId: after }, data: { checkJobId: null } });
    return null;
  }
  let runAt = at ?? follow.nextCheckAt ?? new Date();
  // Settling links only matter for `publish` (an item's state is read from its job, and its webhook is its job's).
  if (!at && follow.publish) {
    const running = await tx.followItem.count({ where: { followId, status: { in: ["running", "queued"] } } });
    const settle = new Date(Date.now() + SETTLE_MS);
    if (running > 0 && follow.state !== "allowance" && settle < runAt) runAt = settle;
  }
  const job = await enqueueJob(tx, {
    userId: follow.userId,
    pipeline: followCheckPipeline,
    context: { followId, userId: follow.userId },
    runAt,
    maxAttempts: 3,
  });
  const named = await tx.follow.updateMany({
    where: { id: followId, checkJobId: after },
    data: { checkJobId: job.id },
  });
  return named.count > 0 ? job : null;
}

export const followCheckPipeline = definePipeline<FollowCheckContext>({
  name: FOLLOW_CHECK_PIPELINE,
  context: contextSchema,
  maxAttempts: 3,
  // Safe to interrupt: every action is a claimed row or a conditional update, and the next link re-checks.
  steps: [{ name: "check", run: check, interruptible: true }],
  async onSuccess(ctx, io) {
    if (ctx.stale) return;
    await scheduleNextCheck(io.tx, ctx.followId, io.jobId);
  },
  async onFailure(ctx, failure, io) {
    // An unexpected failure (expected ones are noted on the follow by the check): the chain goes on, later.
    await io.tx.follow.updateMany({
      where: { id: ctx.followId, checkJobId: io.jobId, state: { in: ["active", "failing"] } },
      data: {
        state: "failing",
        note: `The last check failed: ${failure.message.slice(0, 900)}`,
        failures: { increment: 1 },
      },
    });
    const follow = await io.tx.follow.findUnique({ where: { id: ctx.followId }, select: { failures: true } });
    const at = nextCheckAfterFailure(follow?.failures ?? 1);
    await io.tx.follow.updateMany({ where: { id: ctx.followId, checkJobId: io.jobId }, data: { nextCheckAt: at } });
    await scheduleNextCheck(io.tx, ctx.followId, io.jobId, at);
  },
});
