import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { startWebhookReceiver, type Receiver } from "@/test/webhook-receiver";
import type { AttemptOutcome } from "@/lib/webhooks/deliver";
import type { DeliveryRunner } from "@/lib/webhooks/delivery-runner";

// The delivery runner on real PostgreSQL, with receivers that never answer, fail, or answer with a long
// body: one account's stalled endpoints cannot take the slots another account's deliveries need, a failing
// endpoint is backed off as a whole, and a receiver's 2xx counts whatever length it declares.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
type Route = Parameters<typeof callRoute>[0];
let r: Record<"create" | "test", Route>;
let outbound: import("@/lib/http/outbound").Outbound;

beforeAll(async () => {
  Object.assign(process.env, {
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
    // Nothing here may end by a timeout or a retry: what is tested is who gets a slot, not when.
    WEBHOOK_TIMEOUT_MS: "120000",
    WEBHOOK_RETRY_BASE_MS: "3600000",
  });
  ctx = await useTestDatabase();
  const { createOutbound } = await import("@/lib/http/outbound");
  outbound = createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" });
  r = {
    create: (await import("@/app/v1/me/webhooks/route")).POST as Route,
    test: (await import("@/app/v1/me/webhooks/[id]/test/route")).POST as Route,
  };
});
afterAll(async () => {
  await outbound?.close();
  await ctx?.teardown();
});

async function startRunner(
  options: { concurrency: number; accountConcurrency: number; endpointConcurrency: number },
  onAttempt: (event: { deliveryId: string; outcome: AttemptOutcome }) => void = () => undefined,
): Promise<DeliveryRunner> {
  const { startDeliveryRunner } = await import("@/lib/webhooks/delivery-runner");
  return startDeliveryRunner({ db: ctx.db, outbound, pollMs: 50, listenUrl: null, onAttempt, ...options });
}

async function endpoint(headers: Record<string, string>, url: string): Promise<string> {
  const res = await callRoute(r.create, "/v1/me/webhooks", { headers, body: { url } });
  expect(res.status, res.text).toBe(201);
  return (res.json as { id: string }).id;
}

async function queueTest(headers: Record<string, string>, id: string): Promise<string> {
  const res = await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers, params: { id } });
  expect(res.status, res.text).toBe(202);
  return (res.json as { id: string }).id;
}

describe("fair delivery", () => {
  let stalled: Receiver;
  let healthy: Receiver;
  beforeAll(async () => {
    stalled = await startWebhookReceiver();
    healthy = await startWebhookReceiver();
  });
  afterAll(async () => {
    await stalled?.close();
    await healthy?.close();
  });

  it("one account's endpoints that never answer do not hold back another account's delivery", async () => {
    const noisy = await createCaller(ctx.db);
    const quiet = await createCaller(ctx.db);
    for (let i = 0; i < 10; i++) {
      const path = `/stall-${i}`;
      stalled.respond(path, () => "hang");
      const id = await endpoint(noisy.headers, `${stalled.origin}${path}`);
      for (let n = 0; n < 10; n++) await queueTest(noisy.headers, id);
    }
    // Queued last, so it is the last due: a runner that takes the oldest first would never reach it while
    // every slot waits on a receiver that does not answer.
    const quietId = await endpoint(quiet.headers, `${healthy.origin}/quiet`);
    const quietDelivery = await queueTest(quiet.headers, quietId);

    const outcomes = new Map<string, AttemptOutcome>();
    const runner = await startRunner({ concurrency: 4, accountConcurrency: 2, endpointConcurrency: 1 }, (e) =>
      outcomes.set(e.deliveryId, e.outcome),
    );
    try {
      await healthy.waitFor("the quiet account's delivery", (all) => all.some((q) => q.path === "/quiet"), 30_000);
      await expect.poll(() => outcomes.get(quietDelivery), { timeout: 30_000 }).toBe("delivered");
      // The noisy account held at most its share meanwhile, at most one attempt per endpoint.
      const stalledPaths = stalled.received.map((q) => q.path);
      expect(stalledPaths.length).toBeLessThanOrEqual(2);
      expect(new Set(stalledPaths).size).toBe(stalledPaths.length);
      const inFlight = await ctx.db.webhookDelivery.count({
        where: { userId: noisy.userId, status: "pending", leaseOwner: { not: null } },
      });
      expect(inFlight).toBeLessThanOrEqual(2);
      expect(await ctx.db.webhookDelivery.count({ where: { userId: noisy.userId, status: "delivered" } })).toBe(0);
    } finally {
      await stalled.close();
      await runner.stop({ timeoutMs: 30_000 });
      await ctx.db.webhookDelivery.deleteMany({ where: { userId: noisy.userId } });
    }
  });
});

describe("an endpoint that keeps failing", () => {
  let failing: Receiver;
  beforeAll(async () => {
    failing = await startWebhookReceiver();
    failing.respond("/failing", () => 503);
  });
  afterAll(async () => failing?.close());

  it("is backed off as a whole: its other waiting deliveries wait with the one that failed", async () => {
    const caller = await createCaller(ctx.db);
    const id = await endpoint(caller.headers, `${failing.origin}/failing`);
    const queued = [];
    for (let n = 0; n < 5; n++) queued.push(await queueTest(caller.headers, id));

    const failed: string[] = [];
    const runner = await startRunner({ concurrency: 4, accountConcurrency: 4, endpointConcurrency: 1 }, (e) => {
      if (e.outcome === "retry") failed.push(e.deliveryId);
    });
    try {
      await expect.poll(() => failed.length, { timeout: 30_000 }).toBeGreaterThan(0);
    } finally {
      await runner.stop({ timeoutMs: 30_000 });
    }
    const first = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: failed[0]! } });
    const others = await ctx.db.webhookDelivery.findMany({
      where: { endpointId: id, id: { not: first.id }, status: "pending" },
    });
    expect(failed).toHaveLength(1);
    expect(others).toHaveLength(4);
    for (const other of others) {
      expect(other.attempts).toBe(0);
      expect(other.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(first.nextAttemptAt!.getTime());
    }
    expect(failing.forPath("/failing")).toHaveLength(1);
    expect((await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).failingSince).not.toBeNull();
  });
});

describe("a receiver that said yes", () => {
  let server: http.Server;
  let origin: string;
  const seen: string[] = [];
  beforeAll(async () => {
    // A 2xx with a body longer than anything the runner would read: 70,000 bytes declared, all sent.
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        seen.push(req.url ?? "");
        res.writeHead(200, { "content-type": "text/plain", "content-length": 70_000 }).end("x".repeat(70_000));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is delivered, whatever length its answer declares: the status decides", async () => {
    const caller = await createCaller(ctx.db);
    const id = await endpoint(caller.headers, `${origin}/long-answer`);
    const delivery = await queueTest(caller.headers, id);
    const outcomes = new Map<string, AttemptOutcome>();
    const runner = await startRunner({ concurrency: 2, accountConcurrency: 2, endpointConcurrency: 2 }, (e) =>
      outcomes.set(e.deliveryId, e.outcome),
    );
    try {
      await expect.poll(() => outcomes.get(delivery), { timeout: 30_000 }).toBeDefined();
    } finally {
      await runner.stop({ timeoutMs: 30_000 });
    }
    expect(outcomes.get(delivery)).toBe("delivered");
    const row = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery } });
    expect(row).toMatchObject({ status: "delivered", lastStatusCode: 200, lastError: null, attempts: 1 });
    expect(seen).toEqual(["/long-answer"]);
  });
});

describe("webhook URLs", () => {
  it("refuses port 0 (422), which no delivery could reach", async () => {
    const caller = await createCaller(ctx.db);
    for (const url of ["https://example.com:0/hook", "http://127.0.0.1:0/hook"]) {
      const res = await callRoute(r.create, "/v1/me/webhooks", { headers: caller.headers, body: { url } });
      expect(res.status, url).toBe(422);
      expect((res.json as { detail: { loc: unknown[]; msg: string }[] }).detail[0]).toMatchObject({
        loc: ["body", "url"],
        msg: expect.stringContaining("Port 0"),
      });
    }
  });
});
