// Sends queued webhook deliveries. Deliveries are rows (WebhookDelivery), queued in the transaction that
// finishes a job whichever job driver ran it (local runner or Inngest), so this runner is the same for both:
// it runs in every app process (instrumentation.ts) and every `npm run worker`, claims due rows with
// `FOR UPDATE SKIP LOCKED` under a lease, and never shares slots with jobs (its own WEBHOOK_CONCURRENCY), so a
// slow receiver cannot delay transcriptions. Nor another account's deliveries: an account and an endpoint get
// only so many attempts in flight at once (WEBHOOK_ACCOUNT_CONCURRENCY, WEBHOOK_ENDPOINT_CONCURRENCY). A
// process killed mid-attempt leaves a lease that expires; the next claim sends the same message (same
// `webhook-id`) again: at least once. Wake-ups, slots and the hand-back at stop are the jobs' lease loop
// (lib/jobs/lease-loop.ts); what is the deliveries' own is the fair claim and the attempt. Why deliveries are not
// jobs: docs/decisions/0011-webhook-deliveries-share-the-lease-loop.md.
import { atEpochMs, NOW, NOW_EPOCH_MS } from "@/lib/db/utc-now";
import type { Db } from "@/lib/db/client";
import { createLeaseLoop, defaultOwner, type Claim } from "@/lib/jobs/lease-loop";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { log } from "@/lib/observability/logger";
import { webhookAttempts } from "@/lib/observability/metrics";
import { attemptDelivery, type AttemptOutcome } from "@/lib/webhooks/deliver";
import { onWebhooksQueued, WEBHOOKS_CHANNEL } from "@/lib/webhooks/signal";

export interface DeliveryRunnerOptions {
  db: Db;
  outbound: Outbound;
  /** Attempts in flight at once. Default WEBHOOK_CONCURRENCY. */
  concurrency?: number;
  /** One account's attempts in flight at once, all processes together. Default WEBHOOK_ACCOUNT_CONCURRENCY. */
  accountConcurrency?: number;
  /** Attempts to one endpoint (or per-request URL) in flight at once; 1 while it fails. Default WEBHOOK_ENDPOINT_CONCURRENCY. */
  endpointConcurrency?: number;
  /**
   * Safety-net poll for what no wake-up covers: a row held back by a cap that another process frees. New rows wake
   * the runner (in process, or by LISTEN), and a retry or an expired lease arms a timer. Default 10 s.
   */
  pollMs?: number;
  /** How long a claim holds a delivery. Default 2 × WEBHOOK_TIMEOUT_MS + 1 s. */
  leaseMs?: number;
  /** Also wake on deliveries queued in this process (default true); false: only the poll (another process's view). */
  inProcessSignal?: boolean;
  /** PostgreSQL URL to LISTEN on for deliveries queued by other processes. Default: DATABASE_URL (none with PGlite). `null`: don't. */
  listenUrl?: string | null;
  /** Called after each attempt (tests, benchmarks). */
  onAttempt?: (event: { deliveryId: string; outcome: AttemptOutcome }) => void;
}

export interface DeliveryRunner {
  readonly owner: string;
  wake(): void;
  /** Stops claiming, waits for attempts in flight (up to timeoutMs), hands unfinished claims back. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export function startDeliveryRunner(options: DeliveryRunnerOptions): DeliveryRunner {
  const owner = `${defaultOwner()}:webhooks`;
  const concurrency = options.concurrency ?? env().WEBHOOK_CONCURRENCY;
  const leaseMs = options.leaseMs ?? 2 * env().WEBHOOK_TIMEOUT_MS + 1_000;
  const accountCap = options.accountConcurrency ?? env().WEBHOOK_ACCOUNT_CONCURRENCY;
  const endpointCap = options.endpointConcurrency ?? env().WEBHOOK_ENDPOINT_CONCURRENCY;

  // Fair claims: due deliveries whose destination (endpoint, or per-request URL) and account have room
  // under their caps, counting what every process holds (live leases), the accounts with the least in
  // flight first. A failing endpoint gets one attempt at a time. Claims are taken one process at a time
  // (an advisory lock) so that two processes cannot both fill the same account's last slot.
  const claim = async (limit: number): Promise<Claim<string>> =>
    options.db.$transaction(async (tx) => {
      // now() is the transaction's start: the time every NOW below compares with, so when this claim looked.
      const [{ lookedAt }] = await tx.$queryRaw<[{ lookedAt: number }]>`
        SELECT ${NOW_EPOCH_MS} AS "lookedAt" FROM (SELECT pg_advisory_xact_lock(hashtext('verbatim:webhook-claims'))) locked`;
      const rows = await tx.$queryRaw<{ id: string }[]>`
        WITH busy AS (
          SELECT "userId", COALESCE("endpointId", "url") AS dest, count(*)::int AS n FROM "WebhookDelivery"
          WHERE "status" = 'pending' AND "leaseUntil" >= ${NOW} GROUP BY 1, 2
        ), due AS (
          SELECT d."id", d."userId", d."nextAttemptAt", d."endpointId", COALESCE(d."endpointId", d."url") AS dest,
            row_number() OVER (PARTITION BY d."userId", COALESCE(d."endpointId", d."url") ORDER BY d."nextAttemptAt", d."id") AS nth
          FROM "WebhookDelivery" d
          WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ${NOW} AND (d."leaseUntil" IS NULL OR d."leaseUntil" < ${NOW})
        ), with_room AS (
          SELECT due.* FROM due
          LEFT JOIN busy b ON b."userId" = due."userId" AND b.dest = due.dest
          LEFT JOIN "WebhookEndpoint" e ON e."id" = due."endpointId"
          WHERE due.nth + COALESCE(b.n, 0) <= CASE WHEN e."failingSince" IS NULL THEN ${endpointCap}::int ELSE 1 END
        ), ranked AS (
          SELECT o."id", o."nextAttemptAt",
            row_number() OVER (PARTITION BY o."userId" ORDER BY o."nextAttemptAt", o."id")
              + COALESCE((SELECT sum(b.n) FROM busy b WHERE b."userId" = o."userId"), 0) AS nth
          FROM with_room o
        )
        UPDATE "WebhookDelivery" SET "leaseOwner" = ${owner},
          "leaseUntil" = ${NOW} + ${leaseMs}::float8 * interval '1 millisecond', "attempts" = "attempts" + 1, "updatedAt" = ${NOW}
        WHERE "id" IN (SELECT "id" FROM "WebhookDelivery"
          WHERE "id" IN (SELECT "id" FROM ranked WHERE nth <= ${accountCap}::int ORDER BY nth, "nextAttemptAt" LIMIT ${limit})
            AND "status" = 'pending' AND "nextAttemptAt" <= ${NOW} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${NOW})
          FOR UPDATE SKIP LOCKED)
        RETURNING "id"`;
      return { rows: rows.map((r) => r.id), lookedAt };
    });

  const run = async (id: string) => {
    try {
      const delivery = await options.db.webhookDelivery.findUnique({ where: { id } });
      if (!delivery || delivery.leaseOwner !== owner) return;
      const outcome = await attemptDelivery(options.db, options.outbound, delivery, owner);
      webhookAttempts.inc({ outcome });
      options.onAttempt?.({ deliveryId: id, outcome });
    } catch (error) {
      log.error({ err: error, deliveryId: id }, "webhook delivery attempt failed");
    }
  };

  const loop = createLeaseLoop<string>({
    concurrency,
    claim,
    run,
    // Claims not finished: handed back (the attempt did not count) so another process sends them now.
    handBack: async () => {
      await options.db.$executeRaw`
        UPDATE "WebhookDelivery" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "attempts" = GREATEST(0, "attempts" - 1)
        WHERE "leaseOwner" = ${owner} AND "status" = 'pending'`.catch(() => undefined);
    },
    // Only times since the last claim looked: a due row held back by a cap is claimed when a slot frees, not by a
    // timer that would fire again at once; one that fell due after the claim looked is claimed now.
    msUntilNextDue: async (lookedAt) => {
      const since = atEpochMs(lookedAt);
      const rows = await options.db.$queryRaw<{ ms: number | null }[]>`
        SELECT (EXTRACT(EPOCH FROM (LEAST(
          (SELECT min("nextAttemptAt") FROM "WebhookDelivery"
            WHERE "status" = 'pending' AND "nextAttemptAt" > ${since} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${NOW})),
          (SELECT min("leaseUntil") FROM "WebhookDelivery" WHERE "status" = 'pending' AND "leaseUntil" > ${since})
        ) - ${NOW})) * 1000)::float8 AS ms`;
      return rows[0]?.ms ?? null;
    },
    pollMs: options.pollMs ?? 10_000,
    listen: {
      channel: WEBHOOKS_CHANNEL,
      url: options.listenUrl === undefined ? (env().DATABASE_URL ?? null) : options.listenUrl,
    },
    ...(options.inProcessSignal === false ? {} : { subscribe: onWebhooksQueued }),
    log: (line) => log.warn({ runner: owner }, `webhook delivery runner: ${line}`),
  });
  void loop.start();

  return {
    owner,
    wake: loop.wake,
    stop: ({ timeoutMs = 10_000 } = {}) => loop.stop(timeoutMs),
  };
}

/** The app process's runner (one per process; instrumentation.ts and scripts/worker.ts start it). */
export async function ensureDeliveryRunner(options: Partial<DeliveryRunnerOptions> = {}): Promise<DeliveryRunner> {
  const state = globalThis as { verbatimDeliveryRunner?: DeliveryRunner };
  if (state.verbatimDeliveryRunner) return state.verbatimDeliveryRunner;
  const { getDb } = await import("@/lib/db/client");
  const { appOutbound } = await import("@/lib/http/outbound/configured");
  state.verbatimDeliveryRunner = startDeliveryRunner({
    db: options.db ?? (await getDb()),
    outbound: options.outbound ?? appOutbound(),
    ...options,
  });
  return state.verbatimDeliveryRunner;
}
