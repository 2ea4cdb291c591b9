// Delivers queued notes to export destinations. Deliveries are rows (ExportDelivery) queued by a trigger in the
// transaction that makes a transcript new, corrected or followed in an account, whichever path or job driver did,
// so this runner is the same everywhere: it runs in every app process (instrumentation.ts) and every
// `npm run worker`, on the jobs' lease loop (lib/jobs/lease-loop.ts) with slots of its own. One attempt per
// destination at a time, all processes together (a folder is written one note at a time; Notion allows an
// integration about three requests a second): claims are taken under an advisory lock, one due row per destination
// that has none in flight and is not backed off. A killed process's lease expires and the row is tried again.
import { NOW } from "@/lib/db/utc-now";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { createLeaseLoop, defaultOwner, type Claim } from "@/lib/jobs/lease-loop";
import { log } from "@/lib/observability/logger";
import { attemptExport, type ExportOutcome } from "./attempt";

export const EXPORTS_CHANNEL = "verbatim_exports";

export interface ExportRunnerOptions {
  db: Db;
  outbound: Outbound;
  /** Attempts in flight at once (each to another destination). Default 4. */
  concurrency?: number;
  /** Safety-net poll. Default 1 s. */
  pollMs?: number;
  /** PostgreSQL URL to LISTEN on. Default DATABASE_URL (none with PGlite: the poll). `null`: don't. */
  listenUrl?: string | null;
  /** Called after each attempt (tests). */
  onAttempt?: (event: { deliveryId: string; outcome: ExportOutcome }) => void;
}

export interface ExportRunner {
  wake(): void;
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export function startExportRunner(options: ExportRunnerOptions): ExportRunner {
  const owner = `${defaultOwner()}:exports`;
  const leaseMs = env().EXPORT_ATTEMPT_TIMEOUT_MS + 30_000;
  // The poll is the only wake-up on the embedded database (its trigger's NOTIFY reaches no listener there), so
  // an idle one is a single look at the index: no transaction and no lock until a delivery is pending.
  const anyPending = async (): Promise<boolean> => {
    const [row] = await options.db.$queryRaw<{ any: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM "ExportDelivery" WHERE "status" = 'pending') AS any`;
    return row?.any === true;
  };
  const claim = async (limit: number): Promise<Claim<string>> =>
    !(await anyPending())
      ? { rows: [] }
      : options.db.$transaction(async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('verbatim:export-claims'))`;
          const rows = await tx.$queryRaw<{ id: string }[]>`
        UPDATE "ExportDelivery" SET "leaseOwner" = ${owner},
          "leaseUntil" = ${NOW} + ${leaseMs}::float8 * interval '1 millisecond', "attempts" = "attempts" + 1,
          "updatedAt" = ${NOW}
        WHERE "id" IN (
          SELECT "id" FROM (
            SELECT DISTINCT ON (x."destinationId") x."id", x."nextAttemptAt"
            FROM "ExportDelivery" x JOIN "ExportDestination" d ON d."id" = x."destinationId"
            WHERE x."status" = 'pending' AND x."nextAttemptAt" <= ${NOW}
              AND (x."leaseUntil" IS NULL OR x."leaseUntil" < ${NOW})
              AND d."disabledAt" IS NULL AND (d."retryAt" IS NULL OR d."retryAt" <= ${NOW})
              AND NOT EXISTS (
                SELECT 1 FROM "ExportDelivery" b
                WHERE b."destinationId" = x."destinationId" AND b."status" = 'pending' AND b."leaseUntil" >= ${NOW})
            ORDER BY x."destinationId", x."nextAttemptAt", x."id"
          ) due ORDER BY due."nextAttemptAt" LIMIT ${limit})
        RETURNING "id"`;
          return { rows: rows.map((row) => row.id) };
        });

  const run = async (id: string) => {
    try {
      const outcome = await attemptExport(options.db, options.outbound, id, owner);
      if (outcome) options.onAttempt?.({ deliveryId: id, outcome });
    } catch (error) {
      log.error({ err: error, deliveryId: id }, "export delivery attempt failed");
    }
  };

  const loop = createLeaseLoop<string>({
    concurrency: options.concurrency ?? 4,
    claim,
    run,
    handBack: async () => {
      await options.db.$executeRaw`
        UPDATE "ExportDelivery" SET "leaseOwner" = NULL, "leaseUntil" = NULL, "attempts" = GREATEST(0, "attempts" - 1)
        WHERE "leaseOwner" = ${owner} AND "status" = 'pending'`.catch(() => undefined);
    },
    pollMs: options.pollMs ?? 1_000,
    listen: {
      channel: EXPORTS_CHANNEL,
      url: options.listenUrl === undefined ? (env().DATABASE_URL ?? null) : options.listenUrl,
    },
    log: (line) => log.warn({ runner: owner }, `export delivery runner: ${line}`),
  });
  void loop.start();
  return { wake: loop.wake, stop: ({ timeoutMs = 10_000 } = {}) => loop.stop(timeoutMs) };
}

/** The app process's runner (one per process; instrumentation.ts and scripts/worker.ts start it). */
export async function ensureExportRunner(options: Partial<ExportRunnerOptions> = {}): Promise<ExportRunner> {
  const state = globalThis as { verbatimExportRunner?: ExportRunner };
  if (state.verbatimExportRunner) return state.verbatimExportRunner;
  const { getDb } = await import("@/lib/db/client");
  const { appOutbound } = await import("@/lib/http/outbound/configured");
  state.verbatimExportRunner = startExportRunner({
    db: options.db ?? (await getDb()),
    outbound: options.outbound ?? appOutbound(),
    ...options,
  });
  return state.verbatimExportRunner;
}
