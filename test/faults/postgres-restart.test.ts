import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { startApp, type Proc } from "@/scripts/cluster";
import { freePort } from "../free-port";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import { recordFault, until } from "./report";

// PostgreSQL goes down under load and comes back (a fast shutdown: connections cut, as in a restart or a
// failover). On a cluster of this test's own, never the machine's shared server. While it is down every
// answer is 200 or a clean 503 `database_unavailable` with Retry-After (no 500, no hang); once it is back
// the same app process answers 200 again by itself.

const DOWN_MS = 3_000;
const LOOPS = 4;

let pg: PrivatePostgres;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let youtube: FakeYoutube;
let app: (Proc & { url: string }) | undefined;
let dataDir: string;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  const shared = process.env.TEST_DATABASE_ADMIN_URL;
  process.env.TEST_DATABASE_ADMIN_URL = pg.adminUrl;
  ctx = await useTestDatabase().finally(() => {
    if (shared === undefined) delete process.env.TEST_DATABASE_ADMIN_URL;
    else process.env.TEST_DATABASE_ADMIN_URL = shared;
  });
  youtube = await startFakeYoutube();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-pg-"));
  const port = await freePort();
  app = await startApp("app", port, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: ctx.url,
    AUTH_SECRET: "faults-secret-faults-secret-faults-secret",
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    YOUTUBE_BASE_URL: youtube.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
});

afterAll(async () => {
  await app?.stop();
  await youtube?.close();
  await ctx?.teardown().catch(() => undefined);
  await pg?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  at: number;
  status: number | "no answer";
  code?: string;
  retryAfter?: string | null;
}

describe("PostgreSQL restarts under load", () => {
  it("clean 503s while it is down, 200s again after, without restarting the app", async () => {
    const caller = await createCaller(ctx.db);
    const headers = { ...caller.headers, "content-type": "application/json" };
    const body = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}` });
    const first = await fetch(`${app!.url}/v1/transcript`, { method: "POST", headers, body });
    expect(first.status).toBe(200);

    const answers: Answer[] = [];
    let running = true;
    const loop = async (n: number) => {
      for (let i = 0; running; i++) {
        const at = Date.now();
        const request =
          (i + n) % 2 === 0
            ? fetch(`${app!.url}/v1/transcript`, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) })
            : fetch(`${app!.url}/v1/me/api-key`, { headers, signal: AbortSignal.timeout(15_000) });
        try {
          const res = await request;
          const json = (await res.json().catch(() => ({}))) as { code?: string };
          answers.push({ at, status: res.status, code: json.code, retryAfter: res.headers.get("retry-after") });
        } catch {
          answers.push({ at, status: "no answer" });
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, n) => loop(n));
    // Under load before the stop: each loop has had answers.
    await until("a 200 for each loop before PostgreSQL stops", async () =>
      answers.filter((a) => a.status === 200).length >= 2 * LOOPS ? true : null,
    );
    const stoppedAt = Date.now();
    await pg.stop();
    await until("a 503 while PostgreSQL is down", async () =>
      answers.some((a) => a.at > stoppedAt && a.status === 503),
    );
    const health = (await (await fetch(`${app!.url}/health`)).json()) as Record<string, string>;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + DOWN_MS - Date.now())));
    await pg.start();
    const startedAt = Date.now();
    const recovered = await until(
      "a 200 after PostgreSQL is back",
      async () => answers.find((a) => a.at >= startedAt && a.status === 200),
      60_000,
      50,
    );
    // Still under load after the recovery: each loop has had answers since.
    await until("answers for each loop after the first 200", async () =>
      answers.filter((a) => a.at >= recovered.at).length >= 2 * LOOPS ? true : null,
    );
    running = false;
    await Promise.all(loops);

    const unclean = answers.filter(
      (a) => !(a.status === 200 || (a.status === 503 && a.code === "database_unavailable" && a.retryAfter)),
    );
    const during = answers.filter((a) => a.at >= stoppedAt && a.at < startedAt);
    const lastFailure = Math.max(...answers.filter((a) => a.status !== 200).map((a) => a.at));
    recordFault({
      scenario: "PostgreSQL restart",
      injected: `fast shutdown for ${((startedAt - stoppedAt) / 1000).toFixed(1)} s under ${LOOPS} request loops (${answers.length} requests, ${during.filter((a) => a.status === 503).length} answered 503)`,
      lost: unclean.length,
      recoverySeconds: (recovered.at - startedAt) / 1000,
      note: `same app process; last non-200 ${((lastFailure - startedAt) / 1000).toFixed(2)} s after start`,
    });
    expect(unclean).toEqual([]);
    expect(health).toMatchObject({ status: "degraded", database: "down" });
    expect(answers.filter((a) => a.at > recovered.at).every((a) => a.status === 200)).toBe(true);
    expect(app!.child.exitCode).toBeNull();
  });
});
