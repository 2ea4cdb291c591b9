// Sends queued webhook deliveries. Deliveries are rows (WebhookDelivery), queued in the transaction that
// finishes a job whichever job driver ran it (local runner or Inngest), so this runner is the same for both:
// it runs in every app process (instrumentation.ts) and every `npm run worker`, claims due rows with
// `FOR UPDATE SKIP LOCKED` under a lease, and never shares slots with jobs (its own WEBHOOK_CONCURRENCY), so a
// slow receiver cannot delay transcriptions. A process killed mid-attempt leaves a lease that expires; the
// next claim sends the same message (same `webhook-id`) again: at least once.
import { hostname } from "node:os";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Db } from "@/lib/jobs/store";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { log } from "@/lib/observability/logger";
import { webhookAttempts } from "@/lib/observability/metrics";
import { attemptDelivery, type AttemptOutcome } from "@/lib/webhooks/deliver";
import { onWebhooksQueued, WEBHOOKS_CHANNEL } from "@/lib/webhooks/signal";

const NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

export interface DeliveryRunnerOptions {
  db: Db;
  outbound: Outbound;
  /** Attempts in flight at once. Default WEBHOOK_CONCURRENCY. */
  concurrency?: number;
  /** Safety-net poll for rows queued by other processes. Default 1 s. */
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
  const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}:webhooks`;
  const concurrency = options.concurrency ?? env().WEBHOOK_CONCURRENCY;
  const leaseMs = options.leaseMs ?? 2 * env().WEBHOOK_TIMEOUT_MS + 1_000;
  const active = new Set<Promise<void>>();
  let stopping = false;
  let pumping: Promise<void> | null = null;
  let again = false;

  const claim = async (limit: number): Promise<string[]> => {
    const rows = await options.db.$queryRaw<{ id: string }[]>`
      UPDATE "WebhookDelivery" SET "leaseOwner" = ${owner},
        "leaseUntil" = ${NOW} + ${leaseMs}::float8 * interval '1 millisecond', "attempts" = "attempts" + 1, "updatedAt" = ${NOW}
      WHERE "id" IN (SELECT "id" FROM "WebhookDelivery"
        WHERE "status" = 'pending' AND "nextAttemptAt" <= ${NOW} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${NOW})
        ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"`;
    return rows.map((r) => r.id);
  };

  const run = (id: string) => {
    const task = (async () => {
      const delivery = await options.db.webhookDelivery.findUnique({ where: { id } });
      if (!delivery || delivery.leaseOwner !== owner) return;
      const outcome = await attemptDelivery(options.db, options.outbound, delivery, owner);
      webhookAttempts.inc({ outcome });
      options.onAttempt?.({ deliveryId: id, outcome });
    })()
      .catch((error: unknown) => log.error({ err: error, deliveryId: id }, "webhook delivery attempt failed"))
      .finally(() => {
        active.delete(task);
        wake();
      });
    active.add(task);
  };

  const pump = async () => {
    do {
      again = false;
      while (!stopping && active.size < concurrency) {
        const ids = await claim(concurrency - active.size);
        if (ids.length === 0) break;
        ids.forEach(run);
      }
    } while (again && !stopping);
  };

  function wake(): void {
    if (stopping) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump()
      .catch((error: unknown) => log.warn({ err: error }, "webhook delivery runner: claim failed"))
      .finally(() => (pumping = null));
  }

  const unsubscribe = options.inProcessSignal === false ? () => undefined : onWebhooksQueued(wake);
  // LISTEN on a connection of its own; when it drops, the poll carries on and the next tick reconnects.
  const listenUrl = options.listenUrl === undefined ? (env().DATABASE_URL ?? null) : options.listenUrl;
  let listener: pg.Client | null = null;
  const listen = () => {
    if (!listenUrl || listener || stopping) return;
    const client = (listener = new pg.Client({ connectionString: listenUrl }));
    const drop = () => {
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
    };
    client.on("notification", () => wake());
    client.on("error", drop);
    client.on("end", drop);
    client
      .connect()
      .then(() => client.query(`LISTEN ${WEBHOOKS_CHANNEL}`))
      .catch((error: unknown) => {
        log.warn({ err: error }, "webhook delivery runner: LISTEN failed; polling");
        drop();
      });
  };
  listen();
  const timer = setInterval(() => {
    listen();
    wake();
  }, options.pollMs ?? 1_000);
  timer.unref?.();
  wake();

  return {
    owner,
    wake,
    async stop({ timeoutMs = 10_000 } = {}) {
      stopping = true;
      clearInterval(timer);
      unsubscribe();
      const closing = listener;
      listener = null;
      await closing?.end().catch(() => undefined);
      await pumping;
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(active), new Promise((resolve) => (wait = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(wait);
      // Claims not finished: handed back (the attempt did not count) so another process sends them now.
      await options.db.$executeRaw`
        UPDATE "WebhookDelivery" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "attempts" = GREATEST(0, "attempts" - 1)
        WHERE "leaseOwner" = ${owner} AND "status" = 'pending'`.catch(() => undefined);
    },
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
