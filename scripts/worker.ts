// `npm run worker`: the local job runner in a process of its own, beside (or instead of) the one in the
// app process. Needs DATABASE_URL: the embedded PGlite database can only be opened by the app itself.
// SIGTERM / SIGINT stop it gracefully: no new claims, running jobs finish their current step (a step that
// only waits, such as waiting on AssemblyAI, is aborted at once) and are handed back to the queue. A
// second signal exits at once (leases then expire and are recovered).
//
//   npm run worker -- [--concurrency JOB_CONCURRENCY] [--lease-ms JOB_LEASE_MS] [--poll-ms 5000]
import "./supported-node.mjs";
import { parseArgs } from "node:util";
import { env } from "@/lib/env";
import { checkDomainSettings } from "@/lib/app/check-settings";
import { inngestConfigured } from "@/lib/jobs/drivers/inngest-settings";
import { startLocalRunner } from "@/lib/jobs/drivers/local";
import { appPipelines } from "@/lib/app/pipelines";
import { closeAppOutbound } from "@/lib/http/outbound/configured";
import { log } from "@/lib/observability/logger";
import { ensureDeliveryRunner } from "@/lib/webhooks/delivery-runner";
import { ensureExportRunner } from "@/lib/exports/destinations/runner";

const { values } = parseArgs({
  options: {
    concurrency: { type: "string" },
    "lease-ms": { type: "string" },
    "poll-ms": { type: "string" },
    "stop-timeout-ms": { type: "string" },
  },
});

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

async function main() {
  const settings = env();
  checkDomainSettings(settings);
  if (!settings.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: with the embedded database, the app process runs the jobs itself");
  }
  if (inngestConfigured()) {
    // Both drivers on one queue could run a job twice: with Inngest configured, Inngest runs every job.
    throw new Error(
      "Inngest is configured (INNGEST_EVENT_KEY or INNGEST_DEV): jobs run on Inngest, not on this worker",
    );
  }
  const { reportYtDlpAtStart } = await import("@/lib/captions/ytdlp/status");
  void reportYtDlpAtStart(log, settings.YTDLP_PATH);
  const { getDb } = await import("@/lib/db/client");
  const db = await getDb();
  const stopTimeoutMs = positive("stop-timeout-ms", values["stop-timeout-ms"]) ?? 25_000;
  const starting = startLocalRunner({
    pipelines: appPipelines,
    db,
    concurrency: positive("concurrency", values.concurrency) ?? settings.JOB_CONCURRENCY,
    leaseMs: positive("lease-ms", values["lease-ms"]) ?? settings.JOB_LEASE_MS,
    pollMs: positive("poll-ms", values["poll-ms"]),
    keepAlive: true,
  });
  // Webhook deliveries too, beside the jobs (their own slots: a slow receiver never holds a job's).
  const deliveries = ensureDeliveryRunner({ db });
  // The watch folder where this worker runs beside it (claims keep a file to one job when the app watches too).
  const watch = (await import("@/lib/watch/start")).startWatchFolder();
  // And notes to export destinations (their own slots too).
  const exportDeliveries = ensureExportRunner({ db });

  // Installed before anything is announced, so a signal is never missed.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      log.warn(`worker: ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log.info(`worker: ${signal}: stopping (up to ${stopTimeoutMs} ms)`);
    starting
      .then((runner) =>
        Promise.all([
          runner.stop({ timeoutMs: stopTimeoutMs }),
          deliveries.then((d) => d.stop({ timeoutMs: stopTimeoutMs })),
          watch?.stop(),
          exportDeliveries.then((d) => d.stop({ timeoutMs: stopTimeoutMs })),
        ]),
      )
      .then(() => Promise.all([db.$disconnect(), closeAppOutbound()]))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "worker: stop failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  const runner = await starting;
  log.info(`worker running as ${runner.owner}`);
}

main().catch((error: unknown) => {
  log.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
