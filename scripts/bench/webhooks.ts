// Outbound webhooks (lib/webhooks) on real PostgreSQL, with the local runner and the delivery runner:
// - event → first delivery attempt, p50 / p95 over 40 jobs whose onSuccess emits an event (as the transcribe and
//   import pipelines do): from the job's finishing transaction to the receiver reading the request; for the
//   delivery runner in the same process (woken in-process), in another process woken by NOTIFY, and in another
//   process with only its 1 s poll (the LISTEN connection down).
// - deliveries per second one process sustains to slow receivers (every answer after 1 s): one receiver and four,
//   WEBHOOK_CONCURRENCY 16 (the default) and 64, and the enqueue → done latency of jobs meanwhile, against an idle
//   baseline. One receiver gets at most 8 requests at once from a process (the outbound guard's per-origin pool).
// Run directly: `npx tsx scripts/bench/webhooks.ts`; the main bench script imports benchWebhooks().
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { enqueueJob } from "../../lib/jobs/enqueue";
import { z } from "zod";
import { definePipeline, pipelinesByName } from "../../lib/jobs/pipeline";
import { startLocalRunner, type SettledEvent } from "../../lib/jobs/drivers/local";
import { createOutbound } from "../../lib/http/outbound";
import { emitWebhookEvent } from "../../lib/webhooks/emit-event";
import { startDeliveryRunner } from "../../lib/webhooks/delivery-runner";
import { sealSecret } from "../../lib/auth/secret-box";
import { generateWebhookSecret } from "../../lib/webhooks/signing-secret";
import { createMigratedTestDatabase } from "../../test/pg";

const EMIT = "bench-webhook-emit";
const NOOP = "bench-webhook-noop";
const LATENCY_EVENTS = 40;
const SLOW_DELIVERIES = 400;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const emitting = definePipeline<{ userId: string }>({
  name: EMIT,
  context: z.object({ userId: z.string() }),
  steps: [{ name: "noop", run: async () => {} }],
  onFailure: async () => {},
  async onSuccess(ctx, io) {
    await emitWebhookEvent(io.tx, {
      userId: ctx.userId,
      payload: {
        type: "transcript.completed",
        timestamp: new Date().toISOString(),
        data: { job_id: io.jobId, emitted_at: Date.now() },
      },
    });
  },
});
const noop = definePipeline<Record<string, never>>({
  name: NOOP,
  context: z.record(z.string(), z.never()),
  steps: [{ name: "noop", run: async () => {} }],
  onFailure: async () => {},
});
const pipelines = pipelinesByName([emitting, noop]);

interface Receiver {
  url: string;
  arrivals: { at: number; body: string }[];
  delayMs: number;
  onArrival?: () => void;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: Receiver["arrivals"] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      arrivals.push({ at: Date.now(), body });
      receiver.onArrival?.();
      setTimeout(() => res.writeHead(204).end(), receiver.delayMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    delayMs: 0,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

async function jobLatency(db: PrismaClient, userId: string, count: number): Promise<number[]> {
  const waiters = new Map<string, () => void>();
  const runner = await startLocalRunner({
    pipelines,
    db,
    log: () => {},
    pollMs: 60_000,
    listenUrl: null,
    onSettled: (e: SettledEvent) => waiters.get(e.jobId)?.(),
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const job = await enqueueJob(db, { userId, pipeline: noop, context: {}, driver: "local" });
      await new Promise<void>((resolve) => {
        waiters.set(job.id, resolve);
        void db.job.findUnique({ where: { id: job.id } }).then((row) => row?.status === "done" && resolve());
      });
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    await runner.stop();
  }
}

export async function benchWebhooks(): Promise<Record<string, number>> {
  process.env.AUTH_SECRET ??= "bench-webhooks-secret-bench-webhooks-secret";
  process.env.WEBHOOK_MAX_PENDING ??= "100000";
  const results: Record<string, number> = {};
  const database = await createMigratedTestDatabase();
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 20 }) });
  const receiver = await startReceiver();
  const outbound = createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" });
  try {
    const { id: userId } = await db.user.create({ data: { email: "bench-webhooks@example.test" } });
    await db.webhookEndpoint.create({
      data: {
        userId,
        url: receiver.url,
        eventTypes: ["transcript.completed"],
        secretCipher: sealSecret("webhook", generateWebhookSecret()),
      },
    });

    const variants = [
      ["same process", { inProcessSignal: true, listenUrl: null }],
      ["other process (NOTIFY)", { inProcessSignal: false, listenUrl: database.url }],
      ["other process (1 s poll only)", { inProcessSignal: false, listenUrl: null }],
    ] as const;
    for (const [label, wakeups] of variants) {
      const deliveries = startDeliveryRunner({ db, outbound, ...wakeups, pollMs: 1_000 });
      const jobs = await startLocalRunner({ pipelines, db, log: () => {}, pollMs: 60_000, listenUrl: null });
      const latencies: number[] = [];
      try {
        for (let i = 0; i < LATENCY_EVENTS + 3; i++) {
          const before = receiver.arrivals.length;
          const arrived = new Promise<void>(
            (resolve) => (receiver.onArrival = () => receiver.arrivals.length > before && resolve()),
          );
          await enqueueJob(db, { userId, pipeline: emitting, context: { userId }, driver: "local" });
          await arrived;
          const last = receiver.arrivals.at(-1)!;
          const emittedAt = (JSON.parse(last.body) as { data: { emitted_at: number } }).data.emitted_at;
          if (i >= 3) latencies.push(last.at - emittedAt);
          // Spread the events over the poll period (an event does not arrive just after a poll every time).
          await new Promise((resolve) => setTimeout(resolve, 37 * (i % 7)));
        }
      } finally {
        receiver.onArrival = undefined;
        await jobs.stop();
        await deliveries.stop();
      }
      results[`event → first attempt, ${label}: p50 ms`] = percentile(latencies, 50);
      results[`event → first attempt, ${label}: p95 ms`] = percentile(latencies, 95);
    }

    const idle = await jobLatency(db, userId, 20);
    results["jobs enqueue→done p50 ms, no deliveries"] = percentile(idle, 50);
    // One receiver, and four (the outbound guard keeps at most 8 connections per origin and process).
    const others = await Promise.all([1, 2, 3].map(() => startReceiver()));
    const all = [receiver, ...others];
    for (const r of all) r.delayMs = 1_000;
    const spread = await db.user.create({ data: { email: "bench-webhooks-4@example.test" } });
    for (const r of all) {
      await db.webhookEndpoint.create({
        data: {
          userId: spread.id,
          url: r.url,
          eventTypes: ["transcript.completed"],
          secretCipher: sealSecret("webhook", generateWebhookSecret()),
        },
      });
    }
    try {
      for (const [receivers, owner] of [
        [1, userId],
        [4, spread.id],
      ] as const) {
        for (const concurrency of [16, 64]) {
          await db.webhookDelivery.deleteMany({});
          await db.$transaction(
            async (tx) => {
              for (let i = 0; i < SLOW_DELIVERIES / receivers; i++) {
                await emitWebhookEvent(tx, {
                  userId: owner,
                  payload: { type: "transcript.completed", timestamp: new Date().toISOString(), data: { i } },
                });
              }
            },
            { timeout: 120_000 },
          );
          const start = Date.now();
          // One process's raw capacity: the per-account and per-endpoint caps opened to the whole pool.
          const deliveries = startDeliveryRunner({
            db,
            outbound,
            concurrency,
            accountConcurrency: concurrency,
            endpointConcurrency: concurrency,
            pollMs: 1_000,
            listenUrl: null,
          });
          const during = await jobLatency(db, userId, 20);
          while ((await db.webhookDelivery.count({ where: { status: "delivered" } })) < SLOW_DELIVERIES)
            await new Promise((resolve) => setTimeout(resolve, 100));
          const seconds = (Date.now() - start) / 1000;
          await deliveries.stop();
          const label = `1 s receiver${receivers > 1 ? "s" : ""} ×${receivers}, concurrency ${concurrency}`;
          results[`${label}: deliveries/s`] = SLOW_DELIVERIES / seconds;
          results[`${label}: jobs enqueue→done p50 ms meanwhile`] = percentile(during, 50);
          results[`${label}: jobs enqueue→done p95 ms meanwhile`] = percentile(during, 95);
        }
      }
    } finally {
      for (const r of others) await r.close();
    }
  } finally {
    await receiver.close();
    await outbound.close();
    await db.$disconnect();
    await database.drop();
  }
  return results;
}

/**
 * Fairness: another account's delivery latency while one account's 10 endpoints never answer, 10 events
 * queued to each before it (without per-account caps it waits behind every one of them). With the default caps (16 slots, 4 per
 * account, 2 per endpoint), and with the caps opened to the whole pool (the claim's order alone: accounts
 * with the least in flight first). A first round warms the process up and is not reported.
 */
export async function benchWebhookFairness(): Promise<Record<string, number>> {
  process.env.AUTH_SECRET ??= "bench-webhooks-secret-bench-webhooks-secret";
  const results: Record<string, number> = {};
  const database = await createMigratedTestDatabase();
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 20 }) });
  const stalled = http.createServer(() => undefined); // never answers
  await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
  const stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  const receiver = await startReceiver();
  const outbound = createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" });
  try {
    const noisy = await db.user.create({ data: { email: "bench-noisy@example.test" } });
    const quiet = await db.user.create({ data: { email: "bench-quiet@example.test" } });
    const endpointFor = (userId: string, url: string) =>
      db.webhookEndpoint.create({
        data: {
          userId,
          url,
          eventTypes: ["webhook.test"],
          secretCipher: sealSecret("webhook", generateWebhookSecret()),
        },
      });
    const stalledEndpoints = await Promise.all(
      Array.from({ length: 10 }, (_, i) => endpointFor(noisy.id, `${stalledUrl}/stall-${i}`)),
    );
    const quietEndpoint = await endpointFor(quiet.id, receiver.url);
    const event = (userId: string, endpointId: string, url: string) => ({
      userId,
      endpointId,
      url,
      messageId: `msg_${Math.random().toString(36).slice(2)}`,
      eventType: "webhook.test",
      payload: { type: "webhook.test", timestamp: new Date().toISOString(), data: {} },
    });
    for (const [label, caps] of [
      ["warm-up", {}],
      ["default caps (4 per account, 2 per endpoint)", {}],
      ["caps opened to 16 (fair order only)", { accountConcurrency: 16, endpointConcurrency: 16 }],
    ] as const) {
      await db.webhookDelivery.deleteMany({});
      await db.webhookEndpoint.updateMany({ data: { failingSince: null } });
      await db.webhookDelivery.createMany({
        data: stalledEndpoints.flatMap((e) => Array.from({ length: 10 }, () => event(noisy.id, e.id, e.url))),
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = receiver.arrivals.length;
      const arrived = new Promise<number>(
        (resolve) => (receiver.onArrival = () => receiver.arrivals.length > before && resolve(Date.now())),
      );
      const start = Date.now();
      await db.webhookDelivery.create({ data: event(quiet.id, quietEndpoint.id, quietEndpoint.url) });
      const deliveries = startDeliveryRunner({
        db,
        outbound,
        concurrency: 16,
        ...caps,
        pollMs: 1_000,
        listenUrl: null,
      });
      const ms = (await arrived) - start;
      if (label !== "warm-up")
        results[`another account's delivery while one account's 10 endpoints stall, ${label}: ms`] = ms;
      receiver.onArrival = undefined;
      stalled.closeAllConnections();
      await deliveries.stop({ timeoutMs: 30_000 });
    }
  } finally {
    await receiver.close();
    stalled.closeAllConnections();
    await new Promise((resolve) => stalled.close(resolve));
    await outbound.close();
    await db.$disconnect();
    await database.drop();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = { ...(await benchWebhookFairness()), ...(await benchWebhooks()) };
  for (const [label, value] of Object.entries(figures))
    console.log(`${label.padEnd(64)} ${Number.isInteger(value) ? value : value.toFixed(1)}`);
  process.exit(0);
}
