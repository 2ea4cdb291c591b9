// Figures for speech recognition, through the real app (PostgreSQL, local runner):
// - overhead from the 202 to `done` with an instant fake recogniser, p50/p95 over 50 jobs;
// - 200 concurrent submissions: all accepted, all done, none lost or run twice, total seconds;
// - peak memory (VmHWM) of the app process while it processes a 3-hour audio file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, createReadStream } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startFakeOpenAiAsr } from "../../test/fakes/openai-asr/server";
import { createMigratedTestDatabase } from "../../test/pg";
import { speechWav } from "../../test/speech";
import { createApiKey, startApp } from "./server";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function serveFiles(files: Record<string, string>): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const name = (req.url ?? "").split("/")[1]?.split("?")[0] ?? "";
    const file = files[name];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, {
      "content-type": name.endsWith(".mp3") ? "audio/mpeg" : "audio/wav",
      "content-length": statSync(file).size,
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

async function waitDone(
  baseUrl: string,
  auth: Record<string, string>,
  jobId: string,
  intervalMs: number,
): Promise<string> {
  for (;;) {
    const res = await fetch(`${baseUrl}/v1/jobs/${jobId}`, { headers: auth });
    const body = (await res.json()) as { status: string };
    if (body.status === "done" || body.status === "error") return body.status;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

export async function benchAsr(): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-asr-"));
  const speech = path.join(dir, "speech.wav");
  await speechWav(speech, "A short sentence for the benchmark.");
  const long = path.join(dir, "three-hours.mp3");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=300:sample_rate=16000",
    "-t",
    "10800",
    "-ac",
    "1",
    "-b:a",
    "32k",
    long,
  ]);
  const files = await serveFiles({ "speech.wav": speech, "long.mp3": long });
  const asr = await startFakeOpenAiAsr({ maxUploadBytes: 512 * 1024 * 1024 });
  const database = await createMigratedTestDatabase();
  const appEnv = {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
  };
  const app = await startApp(3170, appEnv);
  const appsToStop = [app];
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const submit = async (auth: Record<string, string>, n: string) => {
      const res = await fetch(`${app.baseUrl}/v1/transcript`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ audio: `${files.base}/speech.wav?n=${n}` }),
      });
      if (res.status !== 202) throw new Error(`expected 202, got ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { job_id: string }).job_id;
    };

    // 50 jobs one after another: 202 → done.
    const single = { authorization: `Bearer ${await createApiKey(app.baseUrl, "bench-single@example.test")}` };
    await waitDone(app.baseUrl, single, await submit(single, "warm"), 5);
    const overheads: number[] = [];
    for (let i = 0; i < 50; i++) {
      const jobId = await submit(single, `s${i}`);
      const accepted = performance.now();
      await waitDone(app.baseUrl, single, jobId, 5);
      overheads.push(performance.now() - accepted);
    }
    overheads.sort((a, b) => a - b);

    // 200 at once, each from its own user so the allowance is not the limit.
    const users = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => ({
        authorization: `Bearer ${await createApiKey(app.baseUrl, `bench-c${i}@example.test`)}`,
      })),
    );
    const started = performance.now();
    const jobIds = await Promise.all(users.map((auth, i) => submit(auth, `c${i}`)));
    // Clients poll about every second, as the contract suggests.
    const outcomes = await Promise.all(jobIds.map((id, i) => waitDone(app.baseUrl, users[i], id, 1000)));
    const totalSeconds = (performance.now() - started) / 1000;
    const rows = await db.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM "Job" WHERE id = ANY($1)`,
      [jobIds],
    );

    // A 3-hour file through the whole pipeline, in a fresh app process so that its peak memory
    // (VmHWM) belongs to this job alone.
    await app.stop();
    const fresh = await startApp(3171, appEnv);
    appsToStop.push(fresh);
    const memoryUser = { authorization: `Bearer ${await createApiKey(fresh.baseUrl, "bench-memory@example.test")}` };
    // Three hours is more than the free allowance: this user is on ultra.
    await db.query(
      `INSERT INTO "Subscription" (id, "userId", tier, "updatedAt") SELECT 'bench-ultra', id, 'ultra', now() FROM "User" WHERE email = 'bench-memory@example.test'
       ON CONFLICT ("userId") DO UPDATE SET tier = 'ultra'`,
    );
    const beforeLong = peakRssMb(fresh.pid);
    const longRes = await fetch(`${fresh.baseUrl}/v1/transcript`, {
      method: "POST",
      headers: { ...memoryUser, "content-type": "application/json" },
      body: JSON.stringify({ audio: `${files.base}/long.mp3` }),
    });
    const longJob = ((await longRes.json()) as { job_id: string }).job_id;
    const longStarted = performance.now();
    const longOutcome = await waitDone(fresh.baseUrl, memoryUser, longJob, 500);
    const afterLong = peakRssMb(fresh.pid);

    return {
      "202 → done overhead p50, ms (50 jobs, instant recogniser)": percentile(overheads, 50),
      "202 → done overhead p95, ms": percentile(overheads, 95),
      "200 concurrent: accepted": jobIds.length,
      "200 concurrent: done": outcomes.filter((s) => s === "done").length,
      "200 concurrent: run more than once": rows.rows.filter((r) => r.attempts !== 1).length,
      "200 concurrent: total seconds": totalSeconds,
      "3-hour file: job done (1 = yes)": longOutcome === "done" ? 1 : 0,
      "3-hour file: seconds": (performance.now() - longStarted) / 1000,
      "app peak RSS before the 3-hour file (fresh process), MB": beforeLong,
      "app peak RSS after the 3-hour file, MB": afterLong,
    };
  } finally {
    await db.end();
    for (const running of appsToStop) await running.stop().catch(() => undefined);
    await database.drop();
    await asr.close();
    await files.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
