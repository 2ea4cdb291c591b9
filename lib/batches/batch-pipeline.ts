import { z } from "zod";
import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { getDb } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { definePipeline, type StepContext } from "@/lib/jobs/pipeline";
import { pauseUnlessAborted } from "@/lib/jobs/pause";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { actingAs } from "@/lib/membership/actor";
import { parseSourceUrl } from "@/lib/sources";
import { asApiError } from "@/lib/captions/upstream-errors";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { countItems, finishBatch, lockBatch } from "@/lib/batches/batch-state";
import { allowPrivateFor } from "@/lib/batches/private-hosts";

// A batch as a chain of short jobs, as an import is (lib/imports/README.md): `advance` moves the batch on for a
// few seconds (notes which running items' transcriptions ended, starts queued items, at most BATCH_CONCURRENCY of
// the account's items running at once across its batches), and onSuccess enqueues the next link in the
// transaction that finishes this one, or ends the batch when nothing is open. Each item is started exactly as
// POST /v1/transcript starts a link (its history entry, its reservation, its single charge), so starting an item
// twice (a crash between the start and its row's update, a retry) finds the same job or the stored transcript,
// never a second charge. No link holds a runner slot while the transcriptions it waits for need one, and the
// runner's per-account fair claim (lib/jobs/store.ts) lets another account's job pass the batch's.

export const BATCH_PIPELINE = "batch";

const batchContextSchema = z.object({
  batchId: z.string().min(1),
  userId: z.string().min(1),
  /** Set by `advance`: nothing queued or running is left. */
  finished: z.boolean().optional(),
});

export type BatchContext = z.infer<typeof batchContextSchema>;

const ADVANCE_MS = 4_000;
const POLL_MS = 150;
/** A claimed item with no job after this long was lost between claim and start (a crash): queued again. */
const UNSTARTED_MS = 15_000;

/** Running items whose jobs ended: done (with the job's transcript), or failed with the job's reason. */
async function syncRunning(db: Prisma.TransactionClient, batchId: string): Promise<number> {
  let changed = (
    await db.batchItem.updateMany({
      where: { batchId, status: "running", jobId: null, updatedAt: { lt: new Date(Date.now() - UNSTARTED_MS) } },
      data: { status: "queued" },
    })
  ).count;
  const running = await db.batchItem.findMany({
    where: { batchId, status: "running", jobId: { not: null } },
    select: { id: true, jobId: true },
  });
  if (running.length === 0) return changed;
  const jobs = await db.job.findMany({
    where: { id: { in: running.map((r) => r.jobId!) } },
    select: { id: true, status: true, errorMessage: true, transcriptId: true },
  });
  const byId = new Map(jobs.map((j) => [j.id, j]));
  for (const item of running) {
    const job = byId.get(item.jobId!);
    let data: Prisma.BatchItemUpdateManyMutationInput | null = null;
    if (job?.status === "done") data = { status: "done", transcriptId: job.transcriptId };
    else if (!job || job.status === "error")
      data = { status: "failed", note: job?.errorMessage ?? "The transcription job is gone." };
    if (data) changed += (await db.batchItem.updateMany({ where: { id: item.id, status: "running" }, data })).count;
  }
  return changed;
}

/** Claims queued items while the account has fewer than BATCH_CONCURRENCY running, under a per-account lock. */
async function claimQueued(ctx: BatchContext) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await lockUntilCommit(tx, `verbatim:batch:${ctx.userId}`);
    const running = await tx.batchItem.count({ where: { status: "running", batch: { userId: ctx.userId } } });
    const free = env().BATCH_CONCURRENCY - running;
    if (free <= 0) return [];
    const queued = await tx.batchItem.findMany({
      where: { batchId: ctx.batchId, status: "queued" },
      orderBy: { line: "asc" },
      take: free,
      select: { id: true, url: true },
    });
    await tx.batchItem.updateMany({
      where: { id: { in: queued.map((q) => q.id) }, status: "queued" },
      data: { status: "running", jobId: null },
    });
    return queued;
  });
}

/** Why an item failed, for its note; null for an error that is not the item's (retried with the job). */
function failureNote(error: unknown): string | null {
  const api = asApiError(error);
  if (api instanceof ApiError && api.status === 402) return `Beyond your monthly allowance: ${api.detail}`;
  if (api instanceof ApiError) return api.detail;
  if (api instanceof RequestValidationError) return api.items[0]?.msg ?? "This link cannot be transcribed.";
  return null;
}

async function startItem(
  batch: { userId: string; lang: string; vocabulary: string[]; actorId: string | null; teamKeyId: string | null },
  item: { id: string; url: string },
): Promise<void> {
  const db = await getDb();
  const audio = parseSourceUrl(item.url, { allowPrivateFor: allowPrivateFor() })?.platform === "podcast";
  try {
    const outcome = await actingAs(
      batch.actorId,
      () =>
        requestTranscript(
          batch.userId,
          {
            url: audio ? "" : item.url,
            audio: audio ? item.url : null,
            upload: null,
            lang: batch.lang,
            format: "json",
            ...(batch.vocabulary.length ? { vocabulary: batch.vocabulary } : {}),
          },
          transcriptDeps(),
          { skipJobRateLimit: true },
        ),
      batch.teamKeyId,
    );
    const data =
      outcome.kind === "job"
        ? { jobId: outcome.job.jobId }
        : { status: "done", transcriptId: outcome.transcript.id, note: outcome.transcript.source_note ?? null };
    await db.batchItem.updateMany({ where: { id: item.id, status: "running" }, data });
  } catch (error) {
    const note = failureNote(error);
    if (note === null) throw error;
    await db.batchItem.updateMany({
      where: { id: item.id, status: "running" },
      data: { status: "failed", note: storableText(note.slice(0, 1000)) },
    });
  }
}

async function startQueued(ctx: BatchContext): Promise<number> {
  const claimed = await claimQueued(ctx);
  if (claimed.length === 0) return 0;
  const db = await getDb();
  const batch = await db.batch.findUniqueOrThrow({ where: { id: ctx.batchId } });
  // At most BATCH_CONCURRENCY at once: an item answered from captions is fetched beside the others.
  const results = await Promise.allSettled(claimed.map((item) => startItem(batch, item)));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
  return claimed.length;
}

async function advance(ctx: BatchContext, io: StepContext): Promise<Partial<BatchContext>> {
  const db = await getDb();
  const deadline = Date.now() + ADVANCE_MS;
  await db.batch.updateMany({ where: { id: ctx.batchId, status: "queued" }, data: { status: "running" } });
  for (;;) {
    const changed = (await syncRunning(db, ctx.batchId)) + (await startQueued(ctx));
    const counts = await countItems(db, ctx.batchId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    await io.progress("transcribing", total === 0 ? 1 : (counts.done + counts.failed + counts.skipped) / total);
    if (counts.queued === 0 && counts.running === 0) return { finished: true };
    if (io.signal.aborted || Date.now() >= deadline) return { finished: false };
    if (changed === 0) await pauseUnlessAborted(POLL_MS, io.signal);
  }
}

/** The next link of a batch's chain of jobs. */
export async function enqueueBatchLink(tx: Prisma.TransactionClient, batchId: string, userId: string): Promise<void> {
  await enqueueJob(tx, { userId, pipeline: batchPipeline, context: { batchId, userId } });
}

export const batchPipeline = definePipeline<BatchContext>({
  name: BATCH_PIPELINE,
  context: batchContextSchema,
  // Every action in it is a forward-only row update or an idempotent start: safe to interrupt.
  steps: [{ name: "advance", run: advance, interruptible: true }],
  async onSuccess(ctx, io) {
    if (ctx.finished) {
      // A retry (retry-batch.ts) may have queued items since `advance` saw none: under the batch's row lock,
      // which the retry takes too, end the batch only when nothing is open, else go on.
      await lockBatch(io.tx, ctx.batchId);
      const counts = await countItems(io.tx, ctx.batchId);
      if (counts.queued === 0 && counts.running === 0) return finishBatch(io.tx, ctx.batchId);
    }
    await enqueueBatchLink(io.tx, ctx.batchId, ctx.userId);
  },
  async onFailure(ctx, failure, io) {
    // The chain ends here, so nothing may stay open: no later link would count it. Items whose transcription
    // ended are settled as usual; one still running goes on by itself and lands in the history.
    await syncRunning(io.tx, ctx.batchId);
    const reason = failure.message.slice(0, 900);
    await io.tx.batchItem.updateMany({
      where: { batchId: ctx.batchId, status: { in: ["queued", "running"] } },
      data: { status: "failed", note: `The batch stopped before this item finished (retry it): ${reason}` },
    });
    await finishBatch(io.tx, ctx.batchId);
  },
});
