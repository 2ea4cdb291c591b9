import { createHash, timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { jobsByState, jobsQueueOldestAge, metricsRegistry, ytdlpReleaseAge } from "@/lib/observability/metrics";

// GET /metrics: Prometheus text, only for `Authorization: Bearer $METRICS_TOKEN` (404 when the token is
// not set, so the endpoint does not exist; 401 for a missing or wrong token, compared in constant time).

function json(status: number, detail: string, code: string, headers: Record<string, string> = {}): Response {
  return Response.json({ detail, code }, { status, headers: { "cache-control": "no-store", ...headers } });
}

function sameSecret(presented: string, expected: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no early exit on the length.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Queue gauges from the database, at scrape: two index range reads on Job(status, runAt). */
async function refreshJobGauges(): Promise<void> {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ queued: bigint; running: bigint; oldest: Date | null }[]>`
    SELECT count(*) FILTER (WHERE "status" = 'queued') AS queued,
           count(*) FILTER (WHERE "status" = 'running') AS running,
           min("runAt") FILTER (WHERE "status" = 'queued' AND "runAt" <= now()) AS oldest
    FROM "Job" WHERE "status" IN ('queued', 'running')`;
  jobsByState.set({ state: "queued" }, Number(row?.queued ?? 0));
  jobsByState.set({ state: "running" }, Number(row?.running ?? 0));
  jobsQueueOldestAge.set(row?.oldest ? Math.max(0, (Date.now() - row.oldest.getTime()) / 1000) : 0);
}

/** yt-dlp's age, from the cached probe (lib/captions/ytdlp/status.ts); no series when it cannot be run. */
async function refreshYtDlpGauge(): Promise<void> {
  const { ytdlpStatus } = await import("@/lib/captions/ytdlp/status");
  const status = await ytdlpStatus(env().YTDLP_PATH);
  ytdlpReleaseAge.reset();
  if (status.version !== null && status.ageDays !== null)
    ytdlpReleaseAge.set({ version: status.version }, status.ageDays);
}

export async function scrapeMetrics(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return json(404, "Not found.", "not_found");
  const header = request.headers.get("authorization") ?? "";
  const presented = /^Bearer (.+)$/i.exec(header)?.[1] ?? "";
  if (!sameSecret(presented, token)) {
    return json(401, "Send 'Authorization: Bearer <METRICS_TOKEN>'.", "unauthorized", {
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
  }
  try {
    await refreshJobGauges();
  } catch {
    // The database is down: the other metrics still say so (errors, latencies); the gauges keep their last values.
  }
  await refreshYtDlpGauge();
  return new Response(await metricsRegistry.metrics(), {
    headers: { "content-type": metricsRegistry.contentType, "cache-control": "no-store" },
  });
}
