import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { callRoute } from "@/test/request";
import { waitUntil } from "@/test/wait";

// Errors in the user's words, the cause in the log (docs/decisions/0009-failures-name-their-cause-and-fix.md):
// through the real route, the real youtubei.js chain and the real job runner, with YouTube and the speech recogniser
// at addresses nothing listens on. The user's answer and the history entry say what happened in plain words (no
// errno, no setting, no job id); the log line names the cause and the setting, and /metrics counts it by cause.

/** A port nothing listens on: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-user-errors-"));
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let podcasts: FakePodcastServer;
let asrPort: number;

beforeAll(async () => {
  podcasts = await startFakePodcastServer();
  asrPort = await closedPort();
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
    YOUTUBE_LOOKUP_TIMEOUT_SECONDS: "5",
    ASR_OPENAI_BASE_URL: `http://127.0.0.1:${asrPort}`,
    // Each refused request is still tried again (the client's retries), without its real backoff's seconds.
    ASR_RETRY_DELAY_MS: "5",
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
});

afterAll(async () => {
  await podcasts?.close();
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

async function failures(): Promise<string> {
  const { metricsRegistry } = await import("@/lib/observability/metrics");
  return (await metricsRegistry.metrics())
    .split("\n")
    .filter((line) => line.startsWith("verbatim_failures_total{"))
    .join("\n");
}

describe("errors in the user's words, the cause in the log", () => {
  it("YouTube unreachable: the answer names the refused connection and what fixes it, not 'try again'; so does the log", async () => {
    const { headers } = await createCaller(ctx.db);
    const route = (await import("@/app/v1/transcript/route")).POST;
    const logs = captureLogs();
    let res: Awaited<ReturnType<typeof callRoute>>;
    try {
      res = await callRoute(route, "/v1/transcript", {
        headers,
        body: { url: "https://www.youtube.com/watch?v=Hq7sWc2dT4E" },
      });
    } finally {
      logs.restore();
    }
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      code: "upstream_refused",
      detail:
        "YouTube refused this server's connection: a firewall rejects it. Its operator can route YouTube through a proxy (YOUTUBE_PROXIES).",
    });
    const line = logs.lines.find((l) => l.code === "upstream_refused" && l.cause === "connection_refused");
    expect(line).toMatchObject({
      setting: expect.stringContaining("YOUTUBE_PROXIES"),
      detail: expect.stringMatching(/ECONNREFUSED|refused/i),
    });
    expect(String(line?.msg)).toMatch(/request failed \(upstream_refused\): connection_refused; check /);
    expect(await failures()).toMatch(
      /verbatim_failures_total\{surface="api",code="upstream_refused",cause="connection_refused"\} [1-9]/,
    );
  });

  it("the recogniser unreachable: the job's error and the history say so plainly; the log has ECONNREFUSED and ASR_OPENAI_BASE_URL", async () => {
    const { userId, headers } = await createCaller(ctx.db);
    const { appPipelines } = await import("@/lib/app/pipelines");
    const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
    const logs = captureLogs();
    const runner = await startLocalRunner({
      pipelines: appPipelines,
      pollMs: 50,
      concurrency: 1,
      backoff: { baseMs: 10, maxMs: 20 },
      log: () => undefined,
    });
    try {
      const route = (await import("@/app/v1/transcript/route")).POST;
      const started = await callRoute(route, "/v1/transcript", {
        headers,
        body: { audio: `${podcasts.origin}/ex/lecture.mp3` },
      });
      expect(started.status).toBe(202);
      const jobId = (started.json as { job_id: string }).job_id;
      const job = await waitUntil(
        `job ${jobId} to end`,
        async () => {
          const row = await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } });
          return row.status === "done" || row.status === "error" ? row : null;
        },
        { timeoutMs: 120_000 },
      );
      expect(job.status).toBe("error");
      expect(job.errorMessage).toBe("Speech recognition is not reachable right now. Try again later.");
      const history = (await import("@/app/v1/me/transcriptions/route")).GET;
      const listed = await callRoute(history, "/v1/me/transcriptions", { headers });
      const entry = (
        listed.json as { transcriptions: { title: string; error: { code: string; message: string } | null }[] }
      ).transcriptions[0];
      expect(entry?.title).toBe("lecture.mp3");
      expect(entry?.error?.message).toBe(job.errorMessage);
      expect(entry?.error?.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|ASR_|job|[0-9a-z]{20,}/i);
      expect(await ctx.db.transcription.count({ where: { userId, state: "error" } })).toBe(1);
    } finally {
      await runner.stop();
      logs.restore();
    }
    const line = logs.lines.find((l) => l.jobId !== undefined && l.cause === "connection_refused");
    expect(line).toMatchObject({
      code: "asr_failed",
      setting: "ASR_OPENAI_BASE_URL",
      detail: expect.stringContaining(`ECONNREFUSED 127.0.0.1:${asrPort}`),
    });
    expect(await failures()).toMatch(
      /verbatim_failures_total\{surface="job",code="asr_failed",cause="connection_refused"\} [1-9]/,
    );
  });
});
