import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { actingAs } from "@/lib/membership/actor";
import { storableText } from "@/lib/db/storable-text";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { z } from "zod";
import { definePipeline, PermanentError, RetryableError, type StepContext } from "@/lib/jobs/pipeline";
import { pauseUnlessAborted } from "@/lib/jobs/pause";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { ApiError } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import type { Prisma } from "@/lib/generated/prisma/client";
import { asApiError } from "@/lib/captions/upstream-errors";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { importDeps } from "@/lib/imports/deps";
import { itemSource, listImportSource } from "@/lib/imports/list-source";
import { lockBatch } from "@/lib/imports/batch-queries";
import { summarise, type Counts } from "@/lib/imports/batch-status";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { importEvent } from "@/lib/webhooks/events";

// An import as a durable job: `list-items` lists the source once (a re-run finds the items and does nothing),
// then `advance` moves the batch on for a few seconds: it notes which running items' jobs finished, and starts
// queued items, at most IMPORT_CONCURRENCY running per user, each exactly as POST /v1/transcript would (so the
// history entry, the allowance and "one job, one charge" are that path's). When work is left, onSuccess enqueues
// the next run of the pipeline for the batch in the transaction that finishes this one: a chain of short jobs,
// not one long one, so an import never holds a runner slot while the transcriptions it waits for need one,
// and a crash or restart resumes from the rows (items are only ever moved forward; starting an item twice
// finds the same job or the stored transcript, never a second charge).

export const IMPORT_PIPELINE = "import";

const importContextSchema = z.object({
  batchId: z.string().min(1),
  userId: z.string().min(1),
  url: z.string().min(1),
  lang: z.string().min(1),
  /** The request's vocabulary, given to every item that is recognised (lib/asr/vocabulary.ts). */
  vocabulary: z.array(z.string()).optional(),
  /** The request's own `webhook_url`, told when the import ends (import.completed). */
  webhookUrl: z.string().optional(),
  /** The member who started it in a team's library: each item's history entry names them (per-member usage). */
  actorId: z.string().optional(),
  /** The team key that started it: each item's history entry names it (per-key usage). */
  teamKeyId: z.string().optional(),
  /** Set by `advance`: nothing queued or running is left. */
  finished: z.boolean().optional(),
});

export type ImportContext = z.infer<typeof importContextSchema>;

/** How long one `advance` keeps the batch moving before handing over to the next job in the chain. */
const ADVANCE_MS = 4_000;
const POLL_MS = 150;
const INSERT_CHUNK = 500;
/** A claimed item with no job after this long was lost between claim and start (a crash): queued again. */
const UNSTARTED_MS = 15_000;

function allowPrivate(): ((host: string) => boolean) | undefined {
  return importDeps().allowPrivateFor;
}

/** Listing failures: the caller's URL is the problem (4xx) → permanent; the upstream's (5xx) → retried. */
function asJobError(error: unknown): unknown {
  const api = asApiError(error);
  if (api instanceof ApiError)
    return api.status < 500 ? new PermanentError(api.code, api.detail) : new RetryableError(api.code, api.detail);
  if (api instanceof RequestValidationError)
    return new PermanentError("invalid_source", api.items[0]?.msg ?? "The URL cannot be imported.");
  return api;
}

async function listItems(ctx: ImportContext, io: StepContext): Promise<Partial<ImportContext>> {
  const db = await getDb();
  if ((await db.importItem.count({ where: { batchId: ctx.batchId } })) > 0) return {};
  await io.progress("listing", 0.01);
  let listed: Awaited<ReturnType<typeof listImportSource>>;
  try {
    listed = await listImportSource(ctx.userId, ctx.url, { ...importDeps(), signal: io.signal });
  } catch (error) {
    throw asJobError(error);
  }
  if (listed.items.length === 0)
    throw new PermanentError("empty_source", "There is nothing to import there: no episodes with audio, or no videos.");

  const allow = allowPrivate();
  const sources = listed.items.map((item) => itemSource(item, allow));
  const keys = sources.flatMap((s) => (s ? [{ platform: s.platform, videoId: s.videoId }] : []));
  const existing = new Set<string>();
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    const rows = await db.transcription.findMany({
      where: { userId: ctx.userId, lang: ctx.lang, OR: keys.slice(i, i + INSERT_CHUNK) },
      select: { platform: true, videoId: true },
    });
    for (const row of rows) existing.add(`${row.platform}:${row.videoId}`);
  }
  const rows: Prisma.ImportItemCreateManyInput[] = listed.items.map((item, position) => {
    const source = sources[position];
    const base = {
      batchId: ctx.batchId,
      guid: item.guid,
      title: item.title,
      audioUrl: item.url,
      durationSeconds: item.durationSeconds,
      position,
    };
    if (!source)
      return {
        ...base,
        status: "failed",
        note: "This item's audio URL is not one Verbatim can fetch (a direct link to an audio or video file is needed).",
      };
    if (existing.has(`${source.platform}:${source.videoId}`))
      return { ...base, status: "skipped", note: "Already in your history." };
    return base;
  });
  // All rows and the batch's total in one transaction: a crash leaves either nothing (listed again) or everything.
  await db.$transaction(
    async (tx) => {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await tx.importItem.createMany({ data: rows.slice(i, i + INSERT_CHUNK), skipDuplicates: true });
      await tx.importBatch.update({
        where: { id: ctx.batchId },
        data: { title: listed.title, total: rows.length, status: "running" },
      });
      await refreshCounts(tx, ctx.batchId);
    },
    { timeout: 30_000, maxWait: 20_000 },
  );
  return {};
}

async function countItems(db: Prisma.TransactionClient, batchId: string): Promise<Counts> {
  const groups = await db.importItem.groupBy({ by: ["status"], where: { batchId }, _count: { _all: true } });
  const counts: Counts = { queued: 0, running: 0, done: 0, failed: 0, skipped: 0 };
  for (const g of groups) if (g.status in counts) counts[g.status as keyof Counts] = g._count._all;
  return counts;
}

export async function refreshCounts(db: Prisma.TransactionClient, batchId: string): Promise<Counts> {
  const counts = await countItems(db, batchId);
  await db.importBatch.update({
    where: { id: batchId },
    data: { done: counts.done, failed: counts.failed, skipped: counts.skipped },
  });
  return counts;
}

/** Running items whose jobs ended: done, or failed with the job's reason. Returns how many changed. */
async function syncRunning(db: Prisma.TransactionClient, batchId: string): Promise<number> {
  // Claimed but never started (the runner died between the claim and the start): back to the queue. Starting
  // an item twice is safe (the same job or the stored transcript comes back), so the wait can be short.
  let changed = (
    await db.importItem.updateMany({
      where: { batchId, status: "running", jobId: null, updatedAt: { lt: new Date(Date.now() - UNSTARTED_MS) } },
      data: { status: "queued" },
    })
  ).count;
  const running = (
    await db.importItem.findMany({ where: { batchId, status: "running" }, select: { id: true, jobId: true } })
  ).filter((r) => r.jobId);
  if (running.length === 0) return changed;
  const jobs = await db.job.findMany({
    where: { id: { in: running.flatMap((r) => (r.jobId ? [r.jobId] : [])) } },
    select: { id: true, status: true, errorMessage: true },
  });
  const byId = new Map(jobs.map((j) => [j.id, j]));
  for (const item of running) {
    const job = byId.get(item.jobId!);
    if (job?.status === "done") {
      changed += (
        await db.importItem.updateMany({ where: { id: item.id, status: "running" }, data: { status: "done" } })
      ).count;
    } else if (!job || job.status === "error") {
      const note = job?.errorMessage ?? "The transcription job is gone.";
      changed += (
        await db.importItem.updateMany({ where: { id: item.id, status: "running" }, data: { status: "failed", note } })
      ).count;
    }
  }
  return changed;
}

/**
 * Claims queued items while the user has fewer than IMPORT_CONCURRENCY running (under a per-user advisory
 * lock, so batches of one user advancing at once never exceed it), then starts each. Returns how many.
 */
async function startQueued(ctx: ImportContext): Promise<number> {
  const db = await getDb();
  const claimed = await db.$transaction(async (tx) => {
    await lockUntilCommit(tx, `verbatim:import:${ctx.userId}`);
    const running = await tx.importItem.count({ where: { status: "running", batch: { userId: ctx.userId } } });
    const free = env().IMPORT_CONCURRENCY - running;
    if (free <= 0) return [];
    const queued = await tx.importItem.findMany({
      where: { batchId: ctx.batchId, status: "queued" },
      orderBy: { position: "asc" },
      take: free,
    });
    // Running without a job: being started now (or, after a crash, handed back by syncRunning).
    await tx.importItem.updateMany({
      where: { id: { in: queued.map((q) => q.id) }, status: "queued" },
      data: { status: "running", jobId: null },
    });
    return queued;
  });
  const allow = allowPrivate();
  const show =
    claimed.length > 0
      ? (await db.importBatch.findUnique({ where: { id: ctx.batchId }, select: { title: true } }))?.title
      : null;
  for (const item of claimed) {
    const source = itemSource({ url: item.audioUrl, kind: "audio" }, allow);
    const audio = source?.platform === "podcast";
    try {
      const outcome = await actingAs(
        ctx.actorId ?? null,
        () =>
          requestTranscript(
            ctx.userId,
            {
              url: audio ? "" : item.audioUrl,
              audio: audio ? item.audioUrl : null,
              upload: null,
              lang: ctx.lang,
              format: "json",
              ...(ctx.vocabulary?.length ? { vocabulary: ctx.vocabulary } : {}),
            },
            transcriptDeps(),
            // An episode keeps the title and show its feed gave it (a video's page names its own).
            {
              estimateSeconds: item.durationSeconds,
              skipJobRateLimit: true,
              ...(audio ? { title: item.title, channel: show ?? null } : {}),
            },
          ),
        ctx.teamKeyId ?? null,
      );
      // A publisher's file that lost passages in reading says so on the item too (source_note).
      const data =
        outcome.kind === "job"
          ? { jobId: outcome.job.jobId }
          : { status: "done", note: outcome.transcript.source_note ?? null };
      await db.importItem.updateMany({ where: { id: item.id, status: "running" }, data });
    } catch (error) {
      const api = asApiError(error);
      let note: string;
      if (api instanceof ApiError && api.status === 402) note = `Beyond your monthly allowance: ${api.detail}`;
      else if (api instanceof ApiError) note = api.detail;
      else if (api instanceof RequestValidationError) note = api.items[0]?.msg ?? "This item cannot be transcribed.";
      else throw error;
      await db.importItem.updateMany({
        where: { id: item.id, status: "running" },
        data: { status: "failed", note: storableText(note.slice(0, 1000)) },
      });
    }
  }
  return claimed.length;
}

async function advance(ctx: ImportContext, io: StepContext): Promise<Partial<ImportContext>> {
  const db = await getDb();
  const deadline = Date.now() + ADVANCE_MS;
  for (;;) {
    const changed = (await syncRunning(db, ctx.batchId)) + (await startQueued(ctx));
    const counts = await refreshCounts(db, ctx.batchId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    await io.progress("transcribing", total === 0 ? 0 : (counts.done + counts.failed + counts.skipped) / total);
    if (counts.queued === 0 && counts.running === 0) return { finished: true };
    if (io.signal.aborted || Date.now() >= deadline) return { finished: false };
    if (changed === 0) await pauseUnlessAborted(POLL_MS, io.signal);
  }
}

/** import.completed, in the transaction that gives the batch its final status. */
async function emitCompleted(tx: Prisma.TransactionClient, ctx: ImportContext): Promise<void> {
  const batch = await tx.importBatch.findUniqueOrThrow({ where: { id: ctx.batchId } });
  const { id, sourceUrl, status, total, done, failed, skipped, note } = batch;
  await emitWebhookEvent(tx, {
    userId: ctx.userId,
    payload: importEvent({ batchId: id, sourceUrl, status, total, done, failed, skipped, note }),
    requestUrl: ctx.webhookUrl,
  });
}

/** The batch's status and note from its item counts. */
async function finishBatch(tx: Prisma.TransactionClient, batchId: string): Promise<void> {
  const counts = await refreshCounts(tx, batchId);
  const first = await tx.importItem.findFirst({
    where: { batchId, status: "failed" },
    orderBy: { position: "asc" },
    select: { note: true },
  });
  await tx.importBatch.update({ where: { id: batchId }, data: summarise(counts, first?.note ?? null) });
}

/** The next link of a batch's chain of import jobs (the same context, `finished` unset). */
export async function enqueueImportLink(tx: Prisma.TransactionClient, ctx: ImportContext): Promise<void> {
  const next: ImportContext = {
    batchId: ctx.batchId,
    userId: ctx.userId,
    url: ctx.url,
    lang: ctx.lang,
    ...(ctx.vocabulary?.length ? { vocabulary: ctx.vocabulary } : {}),
    ...(ctx.webhookUrl ? { webhookUrl: ctx.webhookUrl } : {}),
    ...(ctx.actorId ? { actorId: ctx.actorId } : {}),
    ...(ctx.teamKeyId ? { teamKeyId: ctx.teamKeyId } : {}),
  };
  await enqueueJob(tx, { userId: ctx.userId, pipeline: importPipeline, context: next });
}

export const importPipeline = definePipeline<ImportContext>({
  name: IMPORT_PIPELINE,
  context: importContextSchema,
  steps: [
    { name: "list-items", run: listItems },
    // Every action in it is a forward-only row update or an idempotent start: safe to interrupt.
    { name: "advance", run: advance, interruptible: true },
  ],
  async onSuccess(ctx, io) {
    if (ctx.finished) {
      // A retried item (retry-import-item.ts) may have been queued since `advance` saw none: under the batch's
      // row lock (the retry takes it too), finish only when nothing is queued or running, else go on.
      await lockBatch(io.tx, ctx.batchId);
      const counts = await countItems(io.tx, ctx.batchId);
      if (counts.queued === 0 && counts.running === 0) {
        await finishBatch(io.tx, ctx.batchId);
        await emitCompleted(io.tx, ctx);
        return;
      }
    }
    // Work is left: the next link of the chain, enqueued exactly when this one is marked done.
    await enqueueImportLink(io.tx, ctx);
  },
  async onFailure(ctx, failure, io) {
    // The batch ends here, so nothing may stay queued or running: no later link would ever count it (and running
    // items would hold the user's IMPORT_CONCURRENCY slots for good). Items whose transcription ended are settled
    // as usual; a transcription still running goes on by itself and lands in the history, outside this batch.
    await syncRunning(io.tx, ctx.batchId);
    const reason = failure.message.slice(0, 900);
    await io.tx.importItem.updateMany({
      where: { batchId: ctx.batchId, status: "running" },
      data: {
        status: "failed",
        note: `The import stopped before this item's transcription finished (it may still appear in your history): ${reason}`,
      },
    });
    await io.tx.importItem.updateMany({
      where: { batchId: ctx.batchId, status: "queued" },
      data: { status: "failed", note: `The import stopped: ${reason}` },
    });
    const counts = await refreshCounts(io.tx, ctx.batchId);
    await io.tx.importBatch.update({
      where: { id: ctx.batchId },
      data: { status: counts.done + counts.skipped > 0 ? "partial" : "error", note: failure.message.slice(0, 1000) },
    });
    await emitCompleted(io.tx, ctx);
  },
});
