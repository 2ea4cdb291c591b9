// /metrics over real HTTP after driving requests through the request guard (which gives every request its
// id, log line and latency observation), the transcripts domain (upstream lookups, a 402) and a job run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { parsePrometheus, sampleValue, type Sample } from "@/test/prometheus";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import { captureLogs } from "@/test/capture-logs";

const TOKEN = "metrics-test-token-0123456789";
process.env.METRICS_TOKEN = TOKEN;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let served: ServedRoutes;
let uninstallGuard: () => void;
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  ctx = await useTestDatabase();
  logs = captureLogs();
  const { installRequestGuard, routeTable } = await import("@/lib/http/request-guard");
  const { allEndpoints } = await import("@/lib/openapi/endpoints");
  uninstallGuard = installRequestGuard(routeTable(allEndpoints));
  served = await serveRoutes({
    "/health": { GET: lazy(() => import("@/app/health/route"), "GET") },
    "/metrics": { GET: lazy(() => import("@/app/metrics/route"), "GET") },
    "/v1/transcript": { POST: lazy(() => import("@/app/v1/transcript/route"), "POST") },
    "/v1/jobs/job-raw-id-123": { GET: lazy(() => import("@/app/v1/jobs/[job_id]/route"), "GET") },
  });
});

afterAll(async () => {
  await served?.close();
  uninstallGuard?.();
  logs?.restore();
  await ctx?.teardown();
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`${served.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text());
}

const latencyCount = (samples: Sample[], route: string, status: string) =>
  sampleValue(samples, "verbatim_http_request_duration_seconds_count", { route, status });

describe("/metrics", () => {
  it("answers only the bearer of METRICS_TOKEN", async () => {
    const none = await fetch(`${served.url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: "unauthorized" });
    const wrong = await fetch(`${served.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${served.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("counts requests by route template and status, never by raw path", async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await fetch(`${served.url}/health`)).status).toBe(200);
    expect((await fetch(`${served.url}/v1/transcript`, { method: "POST", body: "{}" })).status).toBe(401);
    expect((await fetch(`${served.url}/v1/jobs/job-raw-id-123`)).status).toBe(401);
    expect((await fetch(`${served.url}/health`, { method: "PROPFIND" })).status).toBe(405);
    const after = await scrape();
    const odd = (s: Sample[]) =>
      sampleValue(s, "verbatim_http_request_duration_seconds_count", {
        method: "other",
        route: "/health",
        status: "405",
      });
    expect(odd(after) - odd(before)).toBe(1);
    expect(after.some((s) => s.labels.method === "PROPFIND")).toBe(false);
    expect(latencyCount(after, "/health", "200") - latencyCount(before, "/health", "200")).toBe(3);
    expect(latencyCount(after, "/v1/transcript", "401") - latencyCount(before, "/v1/transcript", "401")).toBe(1);
    expect(latencyCount(after, "/v1/jobs/{job_id}", "401") - latencyCount(before, "/v1/jobs/{job_id}", "401")).toBe(1);
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes("job-raw-id-123")))).toBe(false);
  });

  it("counts upstream lookups by platform and code, and allowance refusals", async () => {
    const { requestTranscript } = await import("@/lib/transcripts/request-transcript");
    const { transcriptRequestSchema } = await import("@/lib/transcripts/schemas");
    const { createOutbound } = await import("@/lib/http/outbound");
    const provider = new StaticCaptionProvider({
      aaaaaaaaaaa: { title: "Long", durationSeconds: 800, tracks: [{ lang: "en", name: "English", kind: "manual" }] },
      bbbbbbbbbbb: {
        title: "Also long",
        durationSeconds: 800,
        tracks: [{ lang: "en", name: "English", kind: "manual" }],
      },
    });
    const deps = { outbound: createOutbound(), providerFor: () => provider, cacheHours: 24 };
    const user = await createUser(ctx.db);
    const before = await scrape();
    await requestTranscript(user.id, transcriptRequestSchema.parse({ url: "https://youtu.be/aaaaaaaaaaa" }), deps);
    // 800 s of the free tier's 900 s are used: the second video is refused with 402.
    await expect(
      requestTranscript(user.id, transcriptRequestSchema.parse({ url: "https://youtu.be/bbbbbbbbbbb" }), deps),
    ).rejects.toMatchObject({ status: 402 });
    const after = await scrape();
    const lookups = (samples: Sample[]) =>
      sampleValue(samples, "verbatim_upstream_requests_total", { platform: "youtube", path: "lookup", code: "ok" });
    expect(lookups(after) - lookups(before)).toBe(2);
    expect(
      sampleValue(after, "verbatim_allowance_refusals_total") -
        sampleValue(before, "verbatim_allowance_refusals_total"),
    ).toBe(1);
  });

  it("reads queue depth and the oldest queued job's age from the database", async () => {
    const user = await createUser(ctx.db);
    await ctx.db.job.create({
      data: { userId: user.id, input: { pipeline: "none", context: {} }, runAt: new Date(Date.now() - 3_600_000) },
    });
    const samples = await scrape();
    expect(sampleValue(samples, "verbatim_jobs", { state: "queued" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "verbatim_jobs_oldest_queued_age_seconds")).toBeGreaterThanOrEqual(3_600);
    await ctx.db.job.deleteMany({ where: { userId: user.id } });
  });

  it("a job keeps the request id it was enqueued under: stored on the row, on every line of its run; its steps are timed", async () => {
    const { definePipeline, pipelinesByName } = await import("@/lib/jobs/pipeline");
    const { z } = await import("zod");
    const { enqueueJob } = await import("@/lib/jobs/enqueue");
    const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
    const { withLogContext } = await import("@/lib/observability/request-context");
    const { log } = await import("@/lib/observability/logger");
    const { waitFor } = await import("@/test/jobs/helpers");
    const observed = definePipeline<{ n: number }>({
      name: "observed",
      context: z.object({ n: z.number() }),
      steps: [{ name: "say-hello", run: async () => void log.info("hello from the step") }],
      onFailure: async () => undefined,
    });
    const user = await createUser(ctx.db);
    const before = await scrape();
    const job = await withLogContext({ requestId: "req-observed-1" }, () =>
      enqueueJob(ctx.db, { userId: user.id, pipeline: observed, context: { n: 1 }, driver: "local" }),
    );
    expect(job.requestId).toBe("req-observed-1");
    const runner = await startLocalRunner({ pipelines: pipelinesByName([observed]), db: ctx.db, listenUrl: null });
    try {
      await waitFor(async () => (await ctx.db.job.findUniqueOrThrow({ where: { id: job.id } })).status === "done");
    } finally {
      await runner.stop({ timeoutMs: 2_000 });
    }
    const hello = logs.lines.find((line) => line.msg === "hello from the step");
    expect(hello).toMatchObject({ requestId: "req-observed-1", jobId: job.id });
    expect(logs.lines.find((line) => line.msg === "job step done" && line.jobId === job.id)).toMatchObject({
      requestId: "req-observed-1",
      stage: "say-hello",
    });
    const after = await scrape();
    const steps = (s: Sample[]) =>
      sampleValue(s, "verbatim_job_stage_duration_seconds_count", {
        pipeline: "observed",
        stage: "say-hello",
        outcome: "ok",
      });
    expect(steps(after) - steps(before)).toBe(1);
    const done = (s: Sample[]) =>
      sampleValue(s, "verbatim_jobs_finished_total", { pipeline: "observed", outcome: "done" });
    expect(done(after) - done(before)).toBe(1);
  });

  it("gives every answer a request id: the client's when well-formed, else a new one; and logs it", async () => {
    const echoed = await fetch(`${served.url}/health`, { headers: { "x-request-id": "client-chosen.id_1" } });
    expect(echoed.headers.get("x-request-id")).toBe("client-chosen.id_1");
    const replaced = await fetch(`${served.url}/health`, { headers: { "x-request-id": "x".repeat(129) } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await fetch(`${served.url}/health`, { method: "DELETE" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await waitForLine((line) => line.msg === "request" && line.requestId === "client-chosen.id_1");
    expect(logs.lines.find((line) => line.msg === "request" && line.requestId === "client-chosen.id_1")).toMatchObject({
      route: "/health",
      status: 200,
    });
  });
});

async function waitForLine(match: (line: Record<string, unknown>) => boolean) {
  const { waitFor } = await import("@/test/jobs/helpers");
  await waitFor(async () => logs.lines.some(match));
}
