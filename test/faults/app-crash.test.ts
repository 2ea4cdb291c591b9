import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeAssemblyAi, type FakeAssemblyAi } from "@/test/fakes/assemblyai/server";
import { startApp, type Proc, type ProcEnv } from "@/scripts/cluster";
import { freePort } from "../free-port";
import { startSpeechServer } from "./asr-world";
import { recordFault, until } from "./report";

// kill -9 of the app process (the built app, `next start`, running jobs in-process) while 100
// speech-recognition jobs are in flight, then a restart. The first CUT_OFF submissions are accepted by
// AssemblyAI but never answered, so that those jobs are certainly cut in the narrowest window: submitted,
// not yet checkpointed. Nothing may be lost (every job ends done), run
// twice (AssemblyAI gets exactly one paid submission per job) or charged twice (the usage counter equals
// what the jobs hold, which equals the transcripts' durations).

const JOBS = 100;
const LEASE_MS = 5_000;
const CUT_OFF = 5;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let asr: FakeAssemblyAi;
let speech: Awaited<ReturnType<typeof startSpeechServer>>;
let audioBase: string;
let dataDir: string;
let app: (Proc & { url: string }) | undefined;
let appEnv: ProcEnv;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-crash-"));
  speech = await startSpeechServer();
  audioBase = speech.base;
  asr = await startFakeAssemblyAi();
  // Each transcript is queued, then processing twice, then done: about 8 s of polling per job.
  asr.respondWith(() => ({
    words: [
      { text: "Bread", start: 100, end: 400 },
      { text: "rises.", start: 450, end: 900 },
    ],
    queuedPolls: 1,
    processingPolls: 2,
  }));
  ctx = await useTestDatabase();
  port = await freePort();
  appEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: ctx.url,
    AUTH_SECRET: "faults-secret-faults-secret-faults-secret",
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    ASSEMBLYAI_API_KEY: asr.apiKey,
    ASSEMBLYAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    JOB_CONCURRENCY: "50",
    // A short lease: the restarted app resumes the dead one's jobs after 5 s instead of the default 30 s (a
    // heartbeat every 1.7 s keeps the live ones).
    JOB_LEASE_MS: String(LEASE_MS),
    RATE_LIMIT_MULTIPLIER: "0",
  };
});

afterAll(async () => {
  await app?.crash();
  await asr?.close();
  await speech?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const lookups = () => asr.requests.filter((r) => r.method === "GET" && r.path === "/v2/transcript").length;

const counts = async () => {
  const rows = await ctx.db.job.groupBy({ by: ["status"], _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all])) as Partial<
    Record<"queued" | "running" | "done" | "error", number>
  >;
};

describe("the app process is killed with jobs in flight", () => {
  it(`kill -9 during ${JOBS} jobs, restart: 0 lost, 0 run twice, 0 charged twice`, async () => {
    app = await startApp("app", port, appEnv);
    asr.setFault({ mode: "lost-answer", method: "POST", path: "/v2/transcript", count: CUT_OFF });
    const caller = await createCaller(ctx.db);
    const ids: string[] = [];
    let busy = 0;
    for (let i = 0; i < JOBS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          // A submission the database could not take in time under this load (all 100 are one person's, queued on
          // that person's allowance row) is a 503 with Retry-After, never a 500: sent again, as a client does.
          let res: Response;
          for (let attempt = 1; ; attempt++) {
            res = await fetch(`${app!.url}/v1/transcript`, {
              method: "POST",
              headers: { ...caller.headers, "content-type": "application/json" },
              body: JSON.stringify({ audio: `${audioBase}/episode-${i + j}.wav` }),
            });
            if (res.status !== 503 || attempt === 5) break;
            expect(res.headers.get("retry-after"), await res.clone().text()).toBeTruthy();
            busy += 1;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
          // A refusal names its cause: the answer, and the app's own error lines.
          if (res.status !== 202) {
            const errorsLogged = app!
              .logs()
              .split("\n")
              .filter((line) => /"level":(50|40)/.test(line));
            expect(res.status, `${await res.clone().text()}\n${errorsLogged.slice(-5).join("\n")}`).toBe(202);
          }
          return ((await res.json()) as { job_id: string }).job_id;
        }),
      );
      ids.push(...batch);
    }
    expect(new Set(ids).size).toBe(JOBS);

    // Kill when many jobs are mid-way (downloading, converting, submitted, waiting) and the rest queued, or, where
    // the queue has drained by the time the cut-off submissions are in, when every job left is mid-way.
    await until("jobs under way", async () => {
      const c = await counts();
      const left = JOBS - (c.done ?? 0) - (c.error ?? 0);
      return (c.running ?? 0) >= Math.min(25, left) && asr.submitted.length >= CUT_OFF ? c : null;
    });
    const atKill = await counts();
    await app.crash();
    const killedAt = Date.now();
    app = await startApp("app", port, appEnv);
    const finished = await until(
      "every job finished",
      async () => {
        const c = await counts();
        return (c.done ?? 0) + (c.error ?? 0) === JOBS ? c : null;
      },
      180_000,
      250,
    );
    const recoverySeconds = (Date.now() - killedAt) / 1000;

    const jobs = await ctx.db.job.findMany({ where: { id: { in: ids } } });
    const entries = await ctx.db.transcription.findMany({ where: { userId: caller.userId } });
    const periods = await ctx.db.usagePeriod.findMany({ where: { userId: caller.userId } });
    const used = periods.reduce((sum, p) => sum + p.usedSeconds, 0);
    const held = jobs.reduce((sum, j) => sum + j.reservedSecs, 0);
    const durations = entries.reduce((sum, e) => sum + e.durationSeconds, 0);
    const lost = JOBS - (finished.done ?? 0);
    const runTwice = asr.submitted.length - JOBS;
    const chargedTwice = Math.abs(used - durations) + Math.abs(used - held);
    recordFault({
      scenario: "app killed",
      injected: `kill -9 of the app with ${atKill.running ?? 0} jobs running (${CUT_OFF} of them submitted to AssemblyAI, answer not yet received), ${atKill.queued ?? 0} queued, ${atKill.done ?? 0} done (of ${JOBS})`,
      lost: lost + Math.max(0, runTwice) + chargedTwice,
      recoverySeconds,
      note: `kill → all ${JOBS} done; a dead process's leases expire after ${LEASE_MS / 1000} s; ${asr.uploads.length - JOBS} audio re-uploads (free); ${Math.max(0, runTwice)} paid submissions beyond one per job; ${lookups()} transcript-list lookups; ${busy} submissions answered 503 (busy) and sent again`,
    });

    expect(finished).toEqual({ done: JOBS });
    expect(entries.map((e) => e.state)).toEqual(ids.map(() => "done"));
    // One paid submission per job, also for the jobs the kill cut between AssemblyAI accepting their
    // submission and the checkpoint: each restarted one found its transcript by its upload URL.
    expect(asr.submitted.length).toBe(JOBS);
    expect(new Set(asr.submitted.map((s) => s.params.audio_url)).size).toBe(JOBS);
    expect(used).toBe(durations);
    expect(used).toBe(held);
    expect(used).toBeGreaterThan(0);
  });
});
