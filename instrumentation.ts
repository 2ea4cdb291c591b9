// Runs once when the server starts: fail fast on bad settings, and open the database (with the
// embedded default this applies migrations) before the first request is served; the jobs start after it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, devLoginWarning, proxyHopsWarning } = await import("@/lib/env");
  const settings = env();
  // The settings only their domain can read (YOUTUBE_CLIENTS, OIDC_TEAM_ROLES, …): a bad one stops the start too.
  (await import("@/lib/app/check-settings")).checkDomainSettings(settings);
  // The database opens first (the embedded one in a thread of its own: PGlite's WebAssembly boot, then its
  // socket) while the rest of the start runs beside it; requests are served once it is open.
  // Awaited below is the database being open, not Prisma: Prisma loads with the first
  // query that needs it (lib/db/client.ts), after the first answer at the latest (the jobs' start below).
  const { dbKind } = await import("@/lib/db/client");
  const database = dbKind();
  database.catch(() => {}); // awaited below
  // Requests Next.js itself would answer with a plain-text 500 or an
  // empty 405 get a JSON answer in the contract's shape instead (lib/http/request-guard.ts).
  const { installRequestGuard, routeTable } = await import("@/lib/http/request-guard");
  const { API_ROUTES } = await import("@/lib/http/api-routes");
  const { MCP_ROUTES } = await import("@/lib/mcp/metadata");
  const { APP_ROUTES } = await import("@/lib/http/app-routes");
  installRequestGuard(routeTable([...API_ROUTES, ...MCP_ROUTES, ...APP_ROUTES]));
  const { log } = await import("@/lib/observability/logger");
  for (const warning of [devLoginWarning(settings), proxyHopsWarning(settings)]) if (warning) log.warn(warning);
  // Another process serves this DATA_DIR: this one stops, saying which, rather than answer every request
  // with an error.
  await database.catch(async (error: unknown) => (await import("@/lib/db/data-dir-lock")).exitIfDataDirLocked(error));
  // Several app processes may share PostgreSQL: each tells the others which cached pages it expired.
  if (settings.DATABASE_URL) (await import("@/lib/cache/tag-broadcast")).startTagBroadcast(settings.DATABASE_URL);
  // Jobs (the local runner in this process, unless Inngest is configured), webhook deliveries (rows in the
  // database whichever job driver runs the jobs, sent from every app process), the upload cleanup, the first
  // round of setup checks and one line on what yt-dlp can do for YouTube start once the first request is answered (or a few seconds
  // after the server could answer one): nothing a request answers waits for them, and on a small machine
  // they would delay the first answer.
  const { afterFirstAnswer } = await import("@/lib/http/first-response");
  void (async () => {
    await afterFirstAnswer(BACKGROUND_START_AT_MOST_MS);
    const { reportYtDlpAtStart } = await import("@/lib/captions/ytdlp/status");
    void reportYtDlpAtStart(log, settings.YTDLP_PATH);
    // The first round of setup checks (`npm run doctor`'s), so "What works on this server" and /health have
    // results soon after a start; each request only reads the last results (lib/health/setup-check-results.ts).
    const { refreshSetupChecks } = await import("@/lib/health/setup-check-results");
    void refreshSetupChecks();
    const [{ startAppJobs }, { appPipelines }] = await Promise.all([
      import("@/lib/jobs/start"),
      import("@/lib/app/pipelines"),
    ]);
    const runner = await startAppJobs({ pipelines: appPipelines });
    const { ensureDeliveryRunner } = await import("@/lib/webhooks/delivery-runner");
    await ensureDeliveryRunner();
    // Notes to the accounts' export destinations (a folder, Notion): rows too, with slots of their own.
    const { ensureExportRunner } = await import("@/lib/exports/destinations/runner");
    await ensureExportRunner();
    const { scheduleCleanup } = await import("@/lib/app/schedule-cleanup");
    scheduleCleanup();
    const { scheduleEmbedding } = await import("@/lib/app/schedule-embedding");
    scheduleEmbedding();
    (await import("@/lib/app/schedule-second-stage")).scheduleSecondStage();
    // The watch folder (WATCH_DIR): recordings dropped there become the account's transcripts.
    (await import("@/lib/watch/start")).startWatchFolder();
    // Corrections a stop left indexed in part for search, and replaced ones' passages (lib/edits/revision-index.ts).
    (await import("@/lib/edits/revision-index")).resumeRevisionIndexing();
    log.info(
      {
        database: await dbKind(),
        jobs: runner ? "local runner" : "Inngest",
        devLogin: settings.devLogin,
        metrics: Boolean(settings.METRICS_TOKEN),
      },
      "ready",
    );
    (await import("@/lib/app/compile-cache")).writeServerCompileCache();
  })().catch((error: unknown) => log.error({ err: error }, "jobs could not start"));
}

/** Longest the postponable work waits for a first request once the server is ready. */
const BACKGROUND_START_AT_MOST_MS = 3000;
