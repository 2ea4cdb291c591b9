// What the recogniser fault tests share: spoken audio (espeak-ng) served over HTTP, the app's transcript
// and job routes called in-process with a local runner on fast backoff, and the usage ledger.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { useTestRunner } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { speech } from "@/test/speech";
import { until } from "./report";

type Caller = { headers: Record<string, string> };

/** A second of real speech (espeak-ng), served as WAV at every path of a local HTTP server. */
export async function startSpeechServer() {
  const audio = await speech("Bread rises.");
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
    res.end(audio);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    audio,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startAsrWorld(settings: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-asr-"));
  const speech = await startSpeechServer();
  const audioBase = speech.base;
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_REQUEST_TIMEOUT_SECONDS: "1",
    // A request that fails is still tried again within the attempt, without the real backoff's seconds.
    ASR_RETRY_DELAY_MS: "5",
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    ...settings,
  });
  const ctx = await useTestRunner({ pollMs: 200, concurrency: 4, backoff: { baseMs: 50, maxMs: 400 } });
  const transcriptRoute = (await import("@/app/v1/transcript/route")).POST;
  const jobRoute = (await import("@/app/v1/jobs/[job_id]/route")).GET;
  let counter = 0;

  return {
    db: ctx.db,
    async submit(caller: Caller): Promise<string> {
      counter += 1;
      const res = await callRoute(transcriptRoute, "/v1/transcript", {
        headers: caller.headers,
        body: { audio: `${audioBase}/episode-${counter}.wav` },
      });
      expect(res.status).toBe(202);
      return (res.json as { job_id: string }).job_id;
    },
    finished(jobId: string, caller: Caller) {
      return until(`job ${jobId}`, async () => {
        const res = await callRoute(jobRoute, `/v1/jobs/${jobId}`, {
          headers: caller.headers,
          params: { job_id: jobId },
        });
        const body = res.json as { status: string; error: { code: string; message: string } | null };
        return body.status === "done" || body.status === "error" ? body : null;
      });
    },
    /** Usage charged against what the user's jobs hold: a double charge or a double refund breaks the equality. */
    async ledger(userId: string) {
      const periods = await ctx.db.usagePeriod.findMany({ where: { userId } });
      const jobs = await ctx.db.job.findMany({ where: { userId } });
      return {
        used: periods.reduce((sum, p) => sum + p.usedSeconds, 0),
        held: jobs.reduce((sum, j) => sum + j.reservedSecs, 0),
        jobs,
      };
    },
    async close() {
      await ctx.stop();
      await speech.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type AsrWorld = Awaited<ReturnType<typeof startAsrWorld>>;

/** One fault: JOBS jobs under it must all end in error, refunded, after `attempts` attempts; then one succeeds. */
export async function checkRecogniserFault(
  world: AsrWorld,
  caller: { userId: string; headers: Record<string, string> },
  options: { jobs: number; attempts: number; inject(): void; clear(): void; paidCalls(): number },
) {
  const paidBefore = options.paidCalls();
  options.inject();
  const jobIds: string[] = [];
  for (let i = 0; i < options.jobs; i++) jobIds.push(await world.submit(caller));
  const outcomes = await Promise.all(jobIds.map((id) => world.finished(id, caller)));
  for (const outcome of outcomes) {
    expect(outcome.status).toBe("error");
    expect(outcome.error?.message).toBeTruthy();
  }
  const afterFailure = await world.ledger(caller.userId);
  for (const job of afterFailure.jobs)
    expect(job).toMatchObject({ status: "error", attempts: options.attempts, reservedSecs: 0 });
  expect(afterFailure.used).toBe(0);
  const entries = await world.db.transcription.findMany({ where: { userId: caller.userId } });
  expect(entries.map((e) => e.state)).toEqual(jobIds.map(() => "error"));
  expect(options.paidCalls()).toBe(paidBefore); // nothing was paid for

  options.clear();
  const cleared = Date.now();
  const done = await world.finished(await world.submit(caller), caller);
  const recoverySeconds = (Date.now() - cleared) / 1000;
  expect(done.status).toBe("done");
  const after = await world.ledger(caller.userId);
  expect(after.used).toBe(after.held);
  expect(after.used).toBeGreaterThan(0);
  return {
    lost: outcomes.filter((o) => o.status !== "error").length + Math.abs(after.used - after.held),
    recoverySeconds,
    message: outcomes[0]!.error?.message ?? "",
  };
}
