import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { callRoute } from "@/test/request";
import { checkResponse } from "@/test/openapi-contract";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { generatedFeed, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { startFakeHub, type FakeHub } from "@/test/fakes/websub/hub";

// WebSub push for follows against the route handlers, real PostgreSQL and a fake hub that follows the W3C
// recommendation: the hub's verification GETs and content POSTs are handed to /v1/webhooks/websub/{id}'s handlers
// in this process (their answers checked against /openapi.json under vitest.contract.config.ts); the local runner
// runs the follow-check chain. FOLLOW_PUSH_PRIVATE_CALLBACK lets the loopback APP_URL be the callback. Figures
// (requests, times) are printed for the record, not asserted.

let world: ImportWorld;
let fake: FakePodcastServer;
let hub: FakeHub;
let silent: FakeHub;
let checkFollow: typeof import("@/lib/follows/check-follow").checkFollow;
let routes: {
  create: typeof import("@/app/v1/follows/route").POST;
  get: typeof import("@/app/v1/follows/[id]/route").GET;
  patch: typeof import("@/app/v1/follows/[id]/route").PATCH;
  remove: typeof import("@/app/v1/follows/[id]/route").DELETE;
  verify: typeof import("@/app/v1/webhooks/websub/[id]/route").GET;
  push: typeof import("@/app/v1/webhooks/websub/[id]/route").POST;
};

/** What the hub sends to a callback, handed to the route handler (the callback is /v1/webhooks/websub/{id}). */
async function deliver(request: Request): Promise<Response> {
  const id = decodeURIComponent(new URL(request.url).pathname.split("/").at(-1)!);
  const handler = request.method === "GET" ? routes.verify : routes.push;
  const response = await handler(new NextRequest(request), { params: Promise.resolve({ id }) });
  const text = await response.clone().text();
  checkResponse({
    method: request.method,
    url: request.url,
    status: response.status,
    contentType: response.headers.get("content-type"),
    text,
  });
  return response;
}

/** A generated feed naming a hub and itself (RSS with atom:link, as WordPress and FeedBurner write it). */
function hubFeed(path: string, n: number, hubUrl: string, prefix: string): string {
  return generatedFeed(fake.origin, n, { prefix })
    .replace("<rss ", '<rss xmlns:atom="http://www.w3.org/2005/Atom" ')
    .replace(
      "<channel>",
      `<channel><atom:link rel="hub" href="${hubUrl}"/><atom:link rel="self" href="${fake.origin}${path}"/>`,
    );
}

interface Push {
  hub: string;
  state: string;
  lease_ends_at: string | null;
  note: string | null;
}
interface Follow {
  id: string;
  state: string;
  next_check_at: string | null;
  last_checked_at: string | null;
  push: Push | null;
  items: { guid: string; status: string }[];
}

async function detail(headers: Record<string, string>, id: string): Promise<Follow> {
  const res = await callRoute(routes.get, `/v1/follows/${id}`, { headers, params: { id } });
  expect(res.status, res.text).toBe(200);
  return res.json as Follow;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function followFeed(headers: Record<string, string>, path: string) {
  const res = await callRoute(routes.create, "/v1/follows", { headers, body: { url: `${fake.origin}${path}` } });
  expect(res.status, res.text).toBe(201);
  return res.json as Follow;
}

beforeAll(async () => {
  world = await startImportWorld("follow-push", () => ({
    APP_URL: "http://127.0.0.1:3000",
    FOLLOW_PUSH_PRIVATE_CALLBACK: "1",
    FOLLOW_PUSH_TIMEOUT_SECONDS: "1",
  }));
  fake = world.podcasts;
  hub = await startFakeHub({ deliver });
  silent = await startFakeHub({ deliver });
  silent.mode = "silent";
  ({ checkFollow } = await import("@/lib/follows/check-follow"));
  const top = await import("@/app/v1/follows/route");
  const one = await import("@/app/v1/follows/[id]/route");
  const websub = await import("@/app/v1/webhooks/websub/[id]/route");
  routes = {
    create: top.POST,
    get: one.GET,
    patch: one.PATCH,
    remove: one.DELETE,
    verify: websub.GET,
    push: websub.POST,
  };
});

afterAll(async () => {
  await hub?.close();
  await silent?.close();
  await world?.close();
});

describe("follows pushed by a WebSub hub", () => {
  it("subscribes, is verified, checks on a signed push, ignores a bad signature, renews, and unsubscribes", async () => {
    const { headers } = await world.caller();
    const path = "/live/push.rss";
    const topic = `${fake.origin}${path}`;
    let n = 3;
    fake.live.set(path, hubFeed(path, n, hub.url, "push"));

    const started = Date.now();
    const created = await followFeed(headers, path);
    expect(created.push).toMatchObject({ hub: hub.url, lease_ends_at: null });
    const active = await until(
      "the subscription to be verified",
      () => detail(headers, created.id),
      (f) => f.push?.state === "active",
    );
    const activeMs = Date.now() - started;
    await hub.settled();
    expect(hub.requests).toEqual([
      expect.objectContaining({
        mode: "subscribe",
        topic,
        callback: `http://127.0.0.1:3000/v1/webhooks/websub/${created.id}`,
      }),
    ]);
    expect(hub.requests[0]!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hub.verifications).toEqual([expect.objectContaining({ mode: "subscribe", status: 200, confirmed: true })]);
    const lease = new Date(active.push!.lease_ends_at!).getTime() - Date.now();
    expect(lease).toBeGreaterThan(9 * 24 * 3600_000);
    expect(JSON.stringify(active)).not.toContain(hub.requests[0]!.secret!);
    console.log(
      `websub subscribe: ${hub.requests.length} subscribe request + ${hub.verifications.length} verification GET; follow → active in ${activeMs} ms`,
    );

    // Intents that are not this follow's are not confirmed.
    const callback = hub.requests[0]!.callback;
    const ask = async (query: Record<string, string>) =>
      (await deliver(new Request(`${callback}?${new URLSearchParams(query)}`))).status;
    expect(
      await ask({ "hub.mode": "subscribe", "hub.topic": `${topic}x`, "hub.challenge": "c", "hub.lease_seconds": "60" }),
    ).toBe(404);
    expect(await ask({ "hub.mode": "unsubscribe", "hub.topic": topic, "hub.challenge": "c" })).toBe(404);
    expect(await ask({ "hub.mode": "publish", "hub.topic": topic })).toBe(404);

    // While push is live, the fallback poll waits FOLLOW_PUSH_POLL_HOURS.
    await checkFollow(created.id);
    const polled = await detail(headers, created.id);
    expect(new Date(polled.next_check_at!).getTime() - Date.now()).toBeGreaterThan(20 * 3600_000);

    // A signed push: the follow is checked at once and the new item found. A few rounds, timed.
    const rounds: { checkStartedMs: number; foundMs: number }[] = [];
    for (let round = 0; round < 3; round++) {
      n += 1;
      const guid = `push-${n}`;
      fake.live.set(path, hubFeed(path, n, hub.url, "push"));
      const before = (await world.ctx.db.follow.findUniqueOrThrow({ where: { id: created.id } })).checkJobId;
      const t0 = Date.now();
      const deliveries = await hub.publish(topic, fake.live.get(path)!);
      expect(deliveries).toEqual([{ callback, status: 202 }]);
      const link = await until(
        "the check link the push started to run",
        () => world.ctx.db.follow.findUniqueOrThrow({ where: { id: created.id } }),
        (f) => f.checkJobId !== before,
      );
      await until(
        "the check to start",
        () => world.ctx.db.job.findUnique({ where: { id: link.checkJobId! } }),
        (job) => !job || job.status !== "queued",
      );
      const checkStartedMs = Date.now() - t0;
      await until(
        "the pushed item to be found",
        () => world.ctx.db.followItem.findFirst({ where: { followId: created.id, guid } }),
        (item) => item !== null,
      );
      rounds.push({ checkStartedMs, foundMs: Date.now() - t0 });
    }
    console.log(`websub push → check started → item found (ms): ${JSON.stringify(rounds)}`);

    // A bad signature, or none: acknowledged (202) and ignored (no new link of the check chain, no earlier check).
    const quiet = await until(
      "the last pushed check to end (its chain's next link far off)",
      async () => {
        const f = await world.ctx.db.follow.findUniqueOrThrow({ where: { id: created.id } });
        return { f, job: await world.ctx.db.job.findUnique({ where: { id: f.checkJobId ?? "" } }) };
      },
      ({ job }) => job?.status === "queued" && job.runAt.getTime() > Date.now() + 3600_000,
    ).then(({ f }) => f);
    expect(await hub.publish(topic, "<feed/>", { secret: "not the secret" })).toEqual([{ callback, status: 202 }]);
    const unsigned = await deliver(new Request(callback, { method: "POST", body: "<feed/>" }));
    expect(unsigned.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await world.ctx.db.follow.findUniqueOrThrow({ where: { id: created.id } });
    expect({ job: after.checkJobId, next: after.nextCheckAt }).toEqual({
      job: quiet.checkJobId,
      next: quiet.nextCheckAt,
    });

    // Near the lease's end, the next check renews it.
    await world.ctx.db.follow.update({
      where: { id: created.id },
      data: { pushLeaseEndsAt: new Date(Date.now() + 3600_000) },
    });
    hub.grantSeconds = 5 * 24 * 3600;
    await checkFollow(created.id);
    await hub.settled();
    expect(hub.requests.filter((r) => r.mode === "subscribe")).toHaveLength(2);
    const renewed = await detail(headers, created.id);
    expect(renewed.push?.state).toBe("active");
    expect(new Date(renewed.push!.lease_ends_at!).getTime() - Date.now()).toBeGreaterThan(4 * 24 * 3600_000);

    // Paused: unsubscribed (and confirmed); resumed: subscribed again; deleted: unsubscribed.
    const paused = await callRoute(routes.patch, `/v1/follows/${created.id}`, {
      method: "PATCH",
      headers,
      params: { id: created.id },
      body: { state: "paused" },
    });
    expect((paused.json as Follow).push).toMatchObject({ state: "off", lease_ends_at: null });
    await until(
      "the unsubscribe to be verified",
      async () => hub.subscriptions.size,
      (size) => size === 0,
    );
    expect(hub.verifications.at(-1)).toMatchObject({ mode: "unsubscribe", confirmed: true });
    await callRoute(routes.patch, `/v1/follows/${created.id}`, {
      method: "PATCH",
      headers,
      params: { id: created.id },
      body: { state: "active" },
    });
    await until(
      "the resubscription",
      () => detail(headers, created.id),
      (f) => f.push?.state === "active",
    );
    const removed = await callRoute(routes.remove, `/v1/follows/${created.id}`, {
      method: "DELETE",
      headers,
      params: { id: created.id },
    });
    expect(removed.status).toBe(204);
    await until(
      "the unsubscribe to be verified",
      async () => hub.subscriptions.size,
      (size) => size === 0,
    );
    expect(hub.requests.map((r) => r.mode)).toEqual([
      "subscribe",
      "subscribe",
      "unsubscribe",
      "subscribe",
      "unsubscribe",
    ]);
    expect(hub.verifications.at(-1)).toMatchObject({ mode: "unsubscribe", confirmed: true });
  }, 120_000);

  it("keeps polling, with a note, when the hub never answers, refuses or denies the subscription", async () => {
    const { headers } = await world.caller();
    const path = "/live/silent.rss";
    fake.live.set(path, hubFeed(path, 2, silent.url, "silent"));
    const asked = Date.now();
    const created = await followFeed(headers, path);
    const failed = await until(
      "the subscription to fail",
      () => detail(headers, created.id),
      (f) => f.push?.state === "failed",
      15_000,
    );
    const gaveUpMs = Date.now() - asked;
    expect(failed.state).toBe("active");
    expect(failed.push!.note).toMatch(/^Polled only: subscribing for push failed, the hub could not be reached/);
    expect(new Date(failed.next_check_at!).getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
    expect(new Date(failed.next_check_at!).getTime() - Date.now()).toBeLessThan(70 * 60_000);
    // A later check is not held up by the hub: it is not asked again so soon.
    fake.live.set(path, hubFeed(path, 3, silent.url, "silent"));
    const t0 = Date.now();
    expect(await checkFollow(created.id)).toMatchObject({ fetched: true, found: 1 });
    const checkMs = Date.now() - t0;
    console.log(
      `websub silent hub (FOLLOW_PUSH_TIMEOUT_SECONDS=1): follow → push failed in ${gaveUpMs} ms; next check ${checkMs} ms`,
    );
    expect(checkMs).toBeLessThan(1000);

    // A hub that refuses: its answer is noted.
    silent.mode = "refuse";
    const refusedPath = "/live/refused.rss";
    fake.live.set(refusedPath, hubFeed(refusedPath, 1, silent.url, "refused"));
    const refused = await followFeed(headers, refusedPath);
    const noted = await until(
      "the refusal to be noted",
      () => detail(headers, refused.id),
      (f) => f.push?.state === "failed",
    );
    expect(noted.push!.note).toBe(
      "Polled only: subscribing for push failed, the hub answered HTTP 503: Hub is over capacity.",
    );

    // A hub that denies: the denial is noted.
    const denyPath = "/live/denied.rss";
    fake.live.set(denyPath, hubFeed(denyPath, 1, hub.url, "denied"));
    const other = await followFeed(headers, denyPath);
    await until(
      "the subscription",
      () => detail(headers, other.id),
      (f) => f.push?.state === "active",
    );
    const callback = hub.requests.find((r) => r.topic === `${fake.origin}${denyPath}`)!.callback;
    expect(await hub.deny(`${fake.origin}${denyPath}`, callback, "Too many subscriptions")).toBe(200);
    expect((await detail(headers, other.id)).push).toMatchObject({
      state: "failed",
      lease_ends_at: null,
      note: "Polled only: the hub denied the subscription: Too many subscriptions.",
    });
  }, 60_000);
});
