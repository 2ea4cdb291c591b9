import { createHmac } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { followRoutes, type FollowRoutes } from "@/test/follows";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { generatedFeed, type FakePodcastServer } from "@/test/fakes/podcasts/server";

// A follow's limits under concurrency, against the route handlers and real PostgreSQL: creates at once stay within
// FOLLOW_MAX_PER_USER, a pause that lands while a check starts items stops the rest, and signed WebSub pushes count
// against FOLLOW_CHECKS_PER_HOUR and start nothing when replayed. Rate limits are on here (the other follow suites
// turn them off), with small limits so that a few requests reach them.

const MAX_FOLLOWS = 3;
const CHECKS_PER_HOUR = 2;

let world: ImportWorld;
let fake: FakePodcastServer;
let routes: FollowRoutes;
let checkFollow: typeof import("@/lib/follows/check-follow").checkFollow;
let observer: pg.Client;
let watcher: pg.Client;

beforeAll(async () => {
  world = await startImportWorld("follow-limits", () => ({
    RATE_LIMIT_MULTIPLIER: "1",
    FOLLOW_MAX_PER_USER: String(MAX_FOLLOWS),
    FOLLOW_CHECKS_PER_HOUR: String(CHECKS_PER_HOUR),
  }));
  fake = world.podcasts;
  routes = await followRoutes();
  ({ checkFollow } = await import("@/lib/follows/check-follow"));
  // The observer holds a lock in a transaction; the watcher looks at the sessions from outside one, since a
  // transaction's first look at pg_stat_activity fixes which sessions it sees until it ends (a connection opened
  // later, as the pool opens one for the pause, would never show up in it).
  const url = (await import("@/lib/env")).env().DATABASE_URL!;
  observer = new pg.Client({ connectionString: url });
  watcher = new pg.Client({ connectionString: url });
  await Promise.all([observer.connect(), watcher.connect()]);
});

afterAll(async () => {
  await Promise.all([observer?.end(), watcher?.end()]);
  await world?.close();
});

async function follow(headers: Record<string, string>, path: string) {
  fake.live.set(path, generatedFeed(fake.origin, 2, { prefix: path.replace(/\W/g, "") }));
  return callRoute(routes.create, "/v1/follows", { headers, body: { url: `${fake.origin}${path}` } });
}

/** Reads until `ok` holds, every 10 ms, for up to two minutes (a guard against a hang, not a timing). */
async function until(what: string, ok: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (await ok()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // What each session of the test database was doing, so that a hang says where it was.
  const { rows } = await watcher.query(
    `SELECT pid, state, wait_event_type, wait_event, left(query, 200) AS query FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(rows)}`);
}

/** Sessions of the test database waiting for a lock. */
async function waitingForLocks(): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

describe("follow limits under concurrency", () => {
  it("creates at once never pass FOLLOW_MAX_PER_USER", async () => {
    const { userId, headers } = await world.caller();
    expect((await follow(headers, "/limits/first.rss")).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => follow(headers, `/limits/at-once-${i}.rss`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => (a.json as { code: string }).code)).toEqual([
      "too_many_follows",
      "too_many_follows",
      "too_many_follows",
    ]);
    expect(await world.ctx.db.follow.count({ where: { userId } })).toBe(MAX_FOLLOWS);
  });

  it("a pause that lands while a check starts items: what was charged before it stays, nothing more starts", async () => {
    const { userId, headers } = await world.caller();
    const path = "/limits/pause.rss";
    const created = await follow(headers, path);
    expect(created.status).toBe(201);
    const { id } = created.json as { id: string };
    fake.live.set(path, generatedFeed(fake.origin, 5, { prefix: "limitspauserss" }));
    // The user's usage row exists, and the observer holds it: the check's first charge waits there.
    const { chargeSeconds } = await import("@/lib/usage/charge");
    await world.ctx.db.$transaction((tx) => chargeSeconds(tx, userId, 0));
    await observer.query("BEGIN");
    await observer.query(`SELECT 1 FROM "UsagePeriod" WHERE "userId" = $1 FOR UPDATE`, [userId]);
    let checked: Awaited<ReturnType<typeof checkFollow>> | undefined;
    const check = checkFollow(id).then((r) => (checked = r));
    await until("the first item's charge to wait", async () => (await waitingForLocks()) >= 1);

    let paused = false;
    const pause = callRoute(routes.patch, `/v1/follows/${id}`, {
      headers,
      params: { id },
      method: "PATCH",
      body: { state: "paused" },
    }).then((r) => {
      paused = true;
      return r;
    });
    // The pause either is done or waits for the charge in progress (whichever it does, it is in before the rest).
    await until("the pause to be in", async () => paused || (await waitingForLocks()) >= 2);
    await observer.query("ROLLBACK");
    expect((await pause).json).toMatchObject({ state: "paused" });
    await check;

    expect(checked).toMatchObject({ found: 3 });
    expect(checked!.started).toBeLessThanOrEqual(1);
    const jobs = await world.ctx.db.job.count({
      where: { userId, input: { path: ["pipeline"], equals: "transcribe" } },
    });
    expect(jobs).toBe(checked!.started);
    const items = await world.ctx.db.followItem.findMany({ where: { followId: id, status: { not: "seen" } } });
    expect(items.filter((i) => i.status === "queued")).toHaveLength(3 - checked!.started);
  });

  describe("signed pushes", () => {
    /** A follow subscribed at a hub (as a verified subscription leaves it) and how to push to it. */
    async function pushed(path: string) {
      const { userId, headers } = await world.caller();
      const created = await follow(headers, path);
      expect(created.status).toBe(201);
      const { id } = created.json as { id: string };
      const { newPushToken, callbackToken } = await import("@/lib/follows/push-subscribe");
      const { sealSecret } = await import("@/lib/auth/secret-box");
      const token = newPushToken();
      const secret = "a".repeat(64);
      await world.ctx.db.follow.update({
        where: { id },
        data: {
          pushHub: "https://hub.example/",
          pushTopic: `${fake.origin}${path}`,
          pushToken: token,
          pushSecretCipher: sealSecret("websubPush", secret),
          pushState: "active",
          pushLeaseEndsAt: new Date(Date.now() + 86_400_000),
        },
      });
      const callback = callbackToken(token);
      const { receivePush } = await import("@/lib/follows/push-callback");
      return {
        id,
        userId,
        /** One signed delivery of `body`; the check it may start is taken as done (its next check an hour on). */
        async push(body: string) {
          const request = new Request(`http://127.0.0.1:3000/v1/webhooks/websub/${callback}`, {
            method: "POST",
            body,
            headers: { "x-hub-signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}` },
          });
          const outcome = await receivePush(callback, request);
          await world.ctx.db.follow.update({ where: { id }, data: { nextCheckAt: new Date(Date.now() + 3600_000) } });
          return outcome;
        },
        /** Links of the follow's check chain that were due at once ("check now"); the chain's own are an hour on. */
        async checks() {
          return world.ctx.db.job.count({
            where: {
              userId,
              input: { path: ["pipeline"], equals: "follow-check" },
              runAt: { lt: new Date(Date.now() + 600_000) },
            },
          });
        },
      };
    }

    it("count against FOLLOW_CHECKS_PER_HOUR, as 'check now' does", async () => {
      const subject = await pushed("/limits/push-limit.rss");
      const before = await subject.checks();
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await subject.push(`<feed>update ${i}</feed>`));
      expect(outcomes).toEqual(["checked", "checked", "limited", "limited"]);
      expect((await subject.checks()) - before).toBe(CHECKS_PER_HOUR);
    });

    it("a notification already received starts nothing, also when replayed at once", async () => {
      const subject = await pushed("/limits/push-replay.rss");
      const before = await subject.checks();
      expect(await subject.push("<feed>the same</feed>")).toBe("checked");
      expect(await subject.push("<feed>the same</feed>")).toBe("replayed");
      expect((await subject.checks()) - before).toBe(1);
      // Several deliveries of one new body at once: one is acted on.
      const outcomes = await Promise.all([0, 1, 2].map(() => subject.push("<feed>another</feed>")));
      expect(outcomes.sort()).toEqual(["checked", "replayed", "replayed"]);
      expect((await subject.checks()) - before).toBe(2);
    });
  });
});
