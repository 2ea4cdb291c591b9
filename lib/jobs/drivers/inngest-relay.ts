// The Inngest driver's relay: jobs the database queued itself (an alert check, inserted by a trigger in the
// transaction that made a transcript ready: prisma/sql/functions/verbatim_alerts_enqueue.sql) have no
// `enqueueJob` to send their `verbatim/job.requested`; this loop sends it for every queued row not yet handed
// over (`dispatchedAt` null), then marks the row.
//
// - Wake-ups are the local runner's (the lease loop): `LISTEN verbatim_jobs`, which the trigger notifies, a
//   poll as the safety net (the only one with the embedded database).
// - A claim holds a row for this relay (`leaseOwner` / `leaseUntil`, unused by the Inngest driver otherwise)
//   while its event is sent, so relays in several processes send each row once; no transaction is held
//   open across the send.
// - Killed between the send and the mark, the row's lease expires and the next claim sends it again with
//   the same event id (the job's), which Inngest takes once. Past Inngest's deduplication, a second run
//   of a job that already ran does nothing (drivers/inngest.ts skips a finished job) and an alert check
//   records a match once per alert and transcript (AlertMatch is unique on both).
import type { Inngest } from "inngest";
import type { Db } from "@/lib/db/client";
import { NOW } from "@/lib/db/utc-now";
import { createLeaseLoop, defaultOwner, describe } from "@/lib/jobs/lease-loop";
import { JOBS_CHANNEL } from "@/lib/jobs/signal";
import { log as logger } from "@/lib/observability/logger";

export interface InngestRelayOptions {
  db: Db;
  /** Default: the app's client (drivers/inngest-client.ts). */
  client?: Inngest.Any;
  /** Events in flight at once. Default 4. */
  concurrency?: number;
  /** How long a claim holds a row before another relay may send it. Default 30 s. */
  leaseMs?: number;
  /** Safety-net poll. Default 5 s, the local runner's. */
  pollMs?: number;
  /** PostgreSQL URL to LISTEN on. Default: DATABASE_URL (none with the embedded PGlite). `null`: don't. */
  listenUrl?: string | null;
  /** This relay's id in `leaseOwner`. Default host:pid:random:relay. */
  owner?: string;
  log?: (line: string) => void;
  /** Keep the process alive while it runs. Default false. */
  keepAlive?: boolean;
  /** Called after each row was sent and marked (tests). */
  onRelayed?: (jobId: string) => void;
}

export interface InngestRelay {
  readonly owner: string;
  wake(): void;
  /** Stops claiming, lets sends in flight end (up to timeoutMs), hands unsent claims back. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

interface Claimed {
  id: string;
  userId: string;
  runAt: Date;
  requestId: string | null;
}

/** The event id a job is sent with, every time: Inngest runs functions for one id once. */
export const relayEventId = (jobId: string) => `job-${jobId}`;

export async function startInngestRelay(options: InngestRelayOptions): Promise<InngestRelay> {
  const { db } = options;
  const owner = options.owner ?? `${defaultOwner()}:relay`;
  const leaseMs = options.leaseMs ?? 30_000;
  const log = options.log ?? ((line: string) => logger.info({ relay: owner }, line));
  let listenUrl = options.listenUrl;
  if (listenUrl === undefined) listenUrl = (await import("@/lib/env")).env().DATABASE_URL ?? null;
  const { JOB_REQUESTED } = await import("@/lib/jobs/drivers/inngest-client");
  const client = options.client ?? (await import("@/lib/jobs/drivers/inngest-client")).inngest;

  const claim = async (limit: number) => ({
    rows: await db.$queryRaw<Claimed[]>`
      UPDATE "Job" SET "leaseOwner" = ${owner}, "leaseUntil" = ${NOW} + ${leaseMs}::float8 * interval '1 millisecond'
      WHERE "id" IN (
        SELECT "id" FROM "Job"
        WHERE "status" = 'queued' AND "dispatchedAt" IS NULL AND ("leaseUntil" IS NULL OR "leaseUntil" < ${NOW})
        ORDER BY "runAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id", "userId", "runAt", "requestId"`,
  });

  const run = async (job: Claimed) => {
    try {
      await client.send({
        id: relayEventId(job.id),
        name: JOB_REQUESTED,
        data: { jobId: job.id, userId: job.userId, ...(job.requestId ? { requestId: job.requestId } : {}) },
        ...(job.runAt.getTime() > Date.now() ? { ts: job.runAt.getTime() } : {}),
      });
    } catch (error) {
      // The claim is kept until it expires: the next try comes a lease later, from whichever relay claims it.
      log(`job ${job.id}: could not be handed to Inngest (${describe(error)}); trying again in ${leaseMs} ms`);
      return;
    }
    // Whatever Inngest has done with the job meanwhile (it may be running), it was handed over.
    await db.$executeRaw`
      UPDATE "Job" SET "dispatchedAt" = ${NOW}, "leaseOwner" = NULL, "leaseUntil" = NULL
      WHERE "id" = ${job.id} AND "leaseOwner" = ${owner} AND "dispatchedAt" IS NULL`;
    options.onRelayed?.(job.id);
  };

  const loop = createLeaseLoop<Claimed>({
    concurrency: options.concurrency ?? 4,
    claim,
    run,
    handBack: async () => {
      await db.$executeRaw`
        UPDATE "Job" SET "leaseOwner" = NULL, "leaseUntil" = NULL
        WHERE "leaseOwner" = ${owner} AND "dispatchedAt" IS NULL`.catch(() => undefined);
    },
    pollMs: options.pollMs ?? 5_000,
    listen: { channel: JOBS_CHANNEL, url: listenUrl },
    keepAlive: options.keepAlive ?? false,
    log,
  });
  await loop.start();
  return {
    owner,
    wake: () => loop.wake(),
    stop: ({ timeoutMs = 10_000 } = {}) => loop.stop(timeoutMs),
  };
}

// One relay per app process (Next.js dev reloads re-run modules; it lives on globalThis).
const holder = globalThis as { verbatimInngestRelay?: Promise<InngestRelay> };

/** Starts the app process's relay once; later calls return the same one. */
export function ensureInngestRelay(options: Partial<InngestRelayOptions> = {}): Promise<InngestRelay> {
  if (!holder.verbatimInngestRelay) {
    const pending = (async () =>
      startInngestRelay({ db: options.db ?? (await (await import("@/lib/db/client")).getDb()), ...options }))();
    pending.catch(() => (holder.verbatimInngestRelay = undefined));
    holder.verbatimInngestRelay = pending;
  }
  return holder.verbatimInngestRelay;
}
