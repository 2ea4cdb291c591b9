import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";
import { startCluster, type Cluster } from "@/scripts/cluster";
import { freePort } from "../free-port";
import { requireTestRedis } from "../redis-server";
import { until } from "./report";
import { startSpeechServer } from "./asr-world";

// Scale-out, as `npm run cluster` runs it: two app processes and `npm run worker` on one PostgreSQL,
// behind one port (scripts/cluster.ts's balancer), rate limits in Redis, uploads on a DATA_DIR all three
// share. Requests go to the balancer, or straight to one app when the test needs to pick the process.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let youtube: FakeYoutube;
let asr: FakeAssemblyAi;
let speechServer: Awaited<ReturnType<typeof startSpeechServer>>;
let audioBase: string;
let speech: Buffer;
let dataDir: string;
let cluster: Cluster | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-scale-"));
  speechServer = await startSpeechServer();
  audioBase = speechServer.base;
  speech = speechServer.audio;
  youtube = await startFakeYoutube();
  asr = await startFakeAssemblyAi();
  asr.respondWith(() => ({
    words: [
      { text: "Bread", start: 100, end: 400 },
      { text: "rises.", start: 450, end: 900 },
    ],
    queuedPolls: 0,
    processingPolls: 0,
  }));
  ctx = await useTestDatabase();
  const [port, app1, app2] = [await freePort(), await freePort(), await freePort()];
  cluster = await startCluster({
    appPorts: [app1, app2],
    port,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: ctx.url,
      AUTH_SECRET: "scale-secret-scale-secret-scale-secret",
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      REDIS_URL: requireTestRedis(),
      // 60 cached transcripts a minute for the free tier becomes 6; 20 jobs an hour becomes 2.
      RATE_LIMIT_MULTIPLIER: "0.1",
      YOUTUBE_BASE_URL: youtube.url,
      ASSEMBLYAI_API_KEY: asr.apiKey,
      ASSEMBLYAI_BASE_URL: asr.origin,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    },
  });
  // A guard against a hang, not a timing: starting its processes took past the suite's 120 s beside the other
  // suites on two cores.
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await youtube?.close();
  await asr?.close();
  await speechServer?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = { "content-type": "application/json" };
const captioned = JSON.stringify({ url: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}` });

/** Waits on the job's row (polling GET /v1/jobs would meet the scaled-down rate limit), then reads it once over HTTP. */
async function jobDone(base: string, headers: Record<string, string>, jobId: string) {
  await until(
    `job ${jobId}`,
    async () => {
      const job = await ctx.db.job.findUnique({ where: { id: jobId }, select: { status: true } });
      return job?.status === "done" || job?.status === "error";
    },
    120_000,
    200,
  );
  const res = await fetch(`${base}/v1/jobs/${jobId}`, { headers });
  const body = await res.text();
  // The answer as it came, for a failure to show: a job's status, or an error's code and sentence.
  return { ...(JSON.parse(body) as { status?: string }), answer: `${res.status} ${body.slice(0, 300)}` };
}

describe("two app processes and a worker on one PostgreSQL", () => {
  it("N concurrent identical requests to different processes: one upstream fetch", async () => {
    const [a, b] = cluster!.apps;
    youtube.playerDelayMs = 500; // the lookups overlap
    const callers = await Promise.all(Array.from({ length: 6 }, () => createCaller(ctx.db)));
    const answers = await Promise.all(
      callers.map((caller, i) =>
        fetch(`${(i % 2 === 0 ? a : b)!.url}/v1/transcript`, {
          method: "POST",
          headers: { ...caller.headers, ...json },
          body: captioned,
        }),
      ),
    );
    youtube.playerDelayMs = 0;
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as Array<{ id: string }>;
    expect(answers.map((r) => r.status)).toEqual(callers.map(() => 200));
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    const timedtext = youtube.requests.filter(
      (r) => r.path === "/api/timedtext" && r.query.get("v") === FAKE_IDS.captioned,
    );
    expect(timedtext).toHaveLength(1);
  });

  it("rate limits are shared through Redis: the 7th request in a minute is refused whichever process gets it", async () => {
    const [a, b] = cluster!.apps;
    const caller = await createCaller(ctx.db);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${(i % 2 === 0 ? a : b)!.url}/v1/transcript`, {
        method: "POST",
        headers: { ...caller.headers, ...json },
        body: captioned,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it("jobs through the balancer are claimed once: one paid submission each, all done", async () => {
    const submittedBefore = asr.submitted.length;
    const callers = await Promise.all(Array.from({ length: 4 }, () => createCaller(ctx.db)));
    const jobs = await Promise.all(
      callers.flatMap((caller, i) =>
        [0, 1].map(async (j) => {
          const res = await fetch(`${cluster!.url}/v1/transcript`, {
            method: "POST",
            headers: { ...caller.headers, ...json },
            body: JSON.stringify({ audio: `${audioBase}/scale-${i}-${j}.wav` }),
          });
          expect(res.status).toBe(202);
          return { caller, jobId: ((await res.json()) as { job_id: string }).job_id };
        }),
      ),
    );
    const outcomes = await Promise.all(jobs.map(({ caller, jobId }) => jobDone(cluster!.url, caller.headers, jobId)));
    expect(
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.answer).join("\n"),
    ).toEqual(jobs.map(() => "done"));
    expect(asr.submitted.length - submittedBefore).toBe(jobs.length);
  });

  it("an upload signed by one process is received by the other and transcribed by whichever runner claims it", async () => {
    const [a, b] = cluster!.apps;
    const caller = await createCaller(ctx.db);
    const signed = (await (
      await fetch(`${a!.url}/v1/uploads/sign`, {
        method: "POST",
        headers: { ...caller.headers, ...json },
        body: JSON.stringify({ filename: "talk.wav", content_type: "audio/wav" }),
      })
    ).json()) as { upload_url: string; source_url: string };
    expect(new URL(signed.upload_url).origin).toBe(cluster!.url);
    const onB = new URL(signed.upload_url);
    onB.port = new URL(b!.url).port;
    const put = await fetch(onB, {
      method: "PUT",
      headers: { "content-type": "audio/wav" },
      body: new Uint8Array(speech),
    });
    expect(put.status).toBe(200);
    const started = await fetch(`${a!.url}/v1/transcript`, {
      method: "POST",
      headers: { ...caller.headers, ...json },
      body: JSON.stringify({ upload: signed.source_url }),
    });
    expect(started.status).toBe(202);
    const done = await jobDone(cluster!.url, caller.headers, ((await started.json()) as { job_id: string }).job_id);
    expect(done).toMatchObject({ status: "done", transcript: { source: "asr", platform: "upload" } });
  });
});
