import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { startFakeAssemblyAi, type FakeAssemblyAi, type FakeFault } from "@/test/fakes/assemblyai/server";
import { recordFault, until } from "./report";

// The recogniser fails: AssemblyAI (the real SDK against the fake) answers every submission with a 500,
// never answers, or answers garbage. Each job retries (fast backoff here) up to its attempts, then ends
// in `error` with its reservation refunded once; nothing is paid for at the recogniser. When the fault
// clears, the next job goes through.

const JOBS_PER_FAULT = 3;
const ATTEMPTS = 5;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let asr: FakeAssemblyAi;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
let runner: { stop(): Promise<void> };
let routes: { transcript: typeof import("@/app/v1/transcript/route").POST; job: typeof import("@/app/v1/jobs/[job_id]/route").GET };
let audioCounter = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-asr-"));
  const wav = path.join(dataDir, "speech.wav");
  execFileSync("espeak-ng", ["-w", wav, "Bread rises."]);
  const audio = readFileSync(wav);
  audioServer = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
    res.end(audio);
  });
  await new Promise<void>((resolve) => audioServer.listen(0, "127.0.0.1", resolve));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;
  asr = await startFakeAssemblyAi();
  asr.respondWith(() => ({ words: [{ text: "Bread", start: 100, end: 400 }, { text: "rises.", start: 450, end: 900 }], queuedPolls: 0, processingPolls: 0 }));
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASSEMBLYAI_API_KEY: asr.apiKey,
    ASSEMBLYAI_BASE_URL: asr.origin,
    ASR_REQUEST_TIMEOUT_SECONDS: "1",
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  });
  ctx = await useTestDatabase();
  await import("@/lib/jobs/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs");
  runner = await startLocalRunner({ pollMs: 200, concurrency: 4, backoff: { baseMs: 50, maxMs: 400 }, log: () => undefined });
  routes = { transcript: (await import("@/app/v1/transcript/route")).POST, job: (await import("@/app/v1/jobs/[job_id]/route")).GET };
});

afterAll(async () => {
  await runner?.stop();
  await asr?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function submit(caller: { headers: Record<string, string> }): Promise<string> {
  audioCounter += 1;
  const res = await callRoute(routes.transcript, "/v1/transcript", { headers: caller.headers, body: { audio: `${audioBase}/episode-${audioCounter}.wav` } });
  expect(res.status).toBe(202);
  return (res.json as { job_id: string }).job_id;
}

async function finished(jobId: string, caller: { headers: Record<string, string> }) {
  return until(`job ${jobId}`, async () => {
    const res = await callRoute(routes.job, `/v1/jobs/${jobId}`, { headers: caller.headers, params: { job_id: jobId } });
    const body = res.json as { status: string; error: { code: string; message: string } | null };
    return body.status === "done" || body.status === "error" ? body : null;
  });
}

/** Usage charged against what the user's jobs hold: a double charge or a double refund breaks the equality. */
async function ledger(userId: string) {
  const periods = await ctx.db.usagePeriod.findMany({ where: { userId } });
  const jobs = await ctx.db.job.findMany({ where: { userId } });
  return { used: periods.reduce((sum, p) => sum + p.usedSeconds, 0), held: jobs.reduce((sum, j) => sum + j.reservedSecs, 0), jobs };
}

const FAULTS: Array<{ name: string; fault: FakeFault }> = [
  { name: "500 on every submission", fault: { mode: "500", path: "/v2/transcript", method: "POST" } },
  { name: "no answer to submissions (timeout)", fault: { mode: "hang", path: "/v2/transcript", method: "POST" } },
  { name: "garbage (unparseable 200) to submissions", fault: { mode: "garbage", path: "/v2/transcript", method: "POST" } },
];

describe("the recogniser fails", () => {
  for (const { name, fault } of FAULTS) {
    it(`${name}: every job retries, ends in error, refunded once; the next job after the fault succeeds`, async () => {
      const caller = await createCaller(ctx.db);
      const submittedBefore = asr.submitted.length;
      asr.setFault(fault);
      const jobIds: string[] = [];
      for (let i = 0; i < JOBS_PER_FAULT; i++) jobIds.push(await submit(caller));
      const outcomes = await Promise.all(jobIds.map((id) => finished(id, caller)));
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("error");
        expect(outcome.error?.message).toBeTruthy();
      }
      const afterFailure = await ledger(caller.userId);
      for (const job of afterFailure.jobs) {
        expect(job.status).toBe("error");
        expect(job.attempts).toBe(ATTEMPTS);
        expect(job.reservedSecs).toBe(0);
      }
      expect(afterFailure.used).toBe(0);
      const entries = await ctx.db.transcription.findMany({ where: { userId: caller.userId } });
      expect(entries.map((e) => e.state)).toEqual(jobIds.map(() => "error"));
      expect(asr.submitted.length).toBe(submittedBefore); // nothing was paid for

      asr.setFault(null);
      const cleared = Date.now();
      const jobId = await submit(caller);
      const done = await finished(jobId, caller);
      const recoverySeconds = (Date.now() - cleared) / 1000;
      expect(done.status).toBe("done");
      const after = await ledger(caller.userId);
      expect(after.used).toBe(after.held);
      expect(after.used).toBeGreaterThan(0);
      const lost = outcomes.filter((o) => o.status !== "error").length + Math.abs(after.used - after.held);
      recordFault({
        scenario: "recogniser",
        injected: `AssemblyAI: ${name}, ${JOBS_PER_FAULT} jobs`,
        lost,
        recoverySeconds,
        note: `${ATTEMPTS} attempts each, then error + refund (${outcomes[0]!.error?.message.slice(0, 60)})`,
      });
    });
  }
});
