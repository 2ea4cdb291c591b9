import client from "prom-client";

// Every metric Verbatim exports at /metrics, on prom-client's process-wide registry. Metrics are per
// process: scrape every app and worker instance. Each metric is created once per process
// (getSingleMetric), because Next.js may bundle this module more than once.

function once<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

const holder = globalThis as { verbatimDefaultMetrics?: true };
if (!holder.verbatimDefaultMetrics) {
  holder.verbatimDefaultMetrics = true;
  client.collectDefaultMetrics();
}

export const httpRequestDuration = once(
  "verbatim_http_request_duration_seconds",
  () =>
    new client.Histogram({
      name: "verbatim_http_request_duration_seconds",
      help: "Time to answer a request, by method, route template and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

export const jobsByState = once(
  "verbatim_jobs",
  () =>
    new client.Gauge({
      name: "verbatim_jobs",
      help: "Jobs queued or running now (all processes, read from the database at scrape)",
      labelNames: ["state"] as const,
    }),
);

export const jobsQueueOldestAge = once(
  "verbatim_jobs_oldest_queued_age_seconds",
  () =>
    new client.Gauge({
      name: "verbatim_jobs_oldest_queued_age_seconds",
      help: "How long the oldest due queued job has waited (0 when none)",
    }),
);

export const jobsFinished = once(
  "verbatim_jobs_finished_total",
  () =>
    new client.Counter({
      name: "verbatim_jobs_finished_total",
      help: "Job runs that ended in this process, by pipeline and outcome (done, error, retry, released, lost)",
      labelNames: ["pipeline", "outcome"] as const,
    }),
);

export const jobStageDuration = once(
  "verbatim_job_stage_duration_seconds",
  () =>
    new client.Histogram({
      name: "verbatim_job_stage_duration_seconds",
      help: "Time one pipeline step took, by pipeline, step and outcome (ok, failed)",
      labelNames: ["pipeline", "stage", "outcome"] as const,
      buckets: [0.05, 0.25, 1, 5, 15, 60, 180, 600, 1800, 3600],
    }),
);

export const upstreamRequests = once(
  "verbatim_upstream_requests_total",
  () =>
    new client.Counter({
      name: "verbatim_upstream_requests_total",
      help: "Requests to platforms, by platform, path (innertube:<client>, timedtext, yt-dlp, lookup) and code (ok or the error code)",
      labelNames: ["platform", "path", "code"] as const,
    }),
);

export const recognitionSeconds = once(
  "verbatim_recognition_seconds_total",
  () =>
    new client.Counter({
      name: "verbatim_recognition_seconds_total",
      help: "Seconds of audio sent to speech recognition, by provider",
      labelNames: ["provider"] as const,
    }),
);

export const allowanceRefusals = once(
  "verbatim_allowance_refusals_total",
  () =>
    new client.Counter({
      name: "verbatim_allowance_refusals_total",
      help: "Requests refused with 402 because the monthly allowance is used up",
    }),
);

export const stripeWebhooks = once(
  "verbatim_stripe_webhooks_total",
  () =>
    new client.Counter({
      name: "verbatim_stripe_webhooks_total",
      help: "Stripe webhook deliveries, by outcome (applied, duplicate, ignored, unknown_customer, rejected, failed)",
      labelNames: ["outcome"] as const,
    }),
);

export const webhookAttempts = once(
  "verbatim_webhook_attempts_total",
  () =>
    new client.Counter({
      name: "verbatim_webhook_attempts_total",
      help: "Outbound webhook delivery attempts, by outcome (delivered, retry, failed, lost)",
      labelNames: ["outcome"] as const,
    }),
);

export const failuresByCause = once(
  "verbatim_failures_total",
  () =>
    new client.Counter({
      name: "verbatim_failures_total",
      help: "Failures users were told about in their own words, by where (api, job), the code they got, and the cause the log line names (connection_refused, dns, no_route, timeout, youtube_bot_check, asr_not_configured, ...)",
      labelNames: ["surface", "code", "cause"] as const,
    }),
);

export const ytdlpReleaseAge = once(
  "verbatim_ytdlp_release_age_days",
  () =>
    new client.Gauge({
      name: "verbatim_ytdlp_release_age_days",
      help: "Days since the installed yt-dlp's release (its version is its date), by version; update with npm run ytdlp:update",
      labelNames: ["version"] as const,
    }),
);

/** Counts one upstream request; `code` is "ok" or the error code it ended with. */
export function countUpstream(platform: string, path: string, code: string): void {
  upstreamRequests.inc({ platform, path, code });
}

export const metricsRegistry = client.register;
