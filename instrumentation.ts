// Runs once when the server starts: fail fast on bad settings, and open the database (with the
// embedded default this applies migrations) before the first request is served; the jobs start beside.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First of all: requests Next.js itself would answer with a plain-text 500 or an
  // empty 405 get a JSON answer in the contract's shape instead (lib/http/request-guard.ts).
  const { installRequestGuard, routeTable } = await import("@/lib/http/request-guard");
  const { allEndpoints } = await import("@/lib/openapi/endpoints");
  const { MCP_ROUTES } = await import("@/lib/mcp/metadata");
  const { APP_ROUTES } = await import("@/lib/http/app-routes");
  installRequestGuard(routeTable([...allEndpoints, ...MCP_ROUTES, ...APP_ROUTES]));
  const { env, devLoginWarning, proxyHopsWarning } = await import("@/lib/env");
  const { log } = await import("@/lib/observability/logger");
  const settings = env();
  for (const warning of [devLoginWarning(settings), proxyHopsWarning(settings)]) if (warning) log.warn(warning);
  const { getDb, dbKind } = await import("@/lib/db/client");
  await getDb();
  // Several app processes may share PostgreSQL: each tells the others which cached pages it expired.
  if (settings.DATABASE_URL) (await import("@/lib/cache/tag-broadcast")).startTagBroadcast(settings.DATABASE_URL);
  // Jobs (the local runner in this process, unless Inngest is configured), webhook deliveries (rows in the
  // database whichever job driver runs the jobs, sent from every app process) and the upload cleanup start
  // next to the first requests, not before them: nothing a request answers waits for them.
  void (async () => {
    const { startAppJobs } = await import("@/lib/jobs/start");
    const runner = await startAppJobs();
    const { ensureDeliveryRunner } = await import("@/lib/webhooks/delivery-runner");
    await ensureDeliveryRunner();
    const { scheduleCleanup } = await import("@/lib/uploads/schedule-cleanup");
    scheduleCleanup();
    log.info({ database: await dbKind(), jobs: runner ? "local runner" : "Inngest", devLogin: settings.devLogin, metrics: Boolean(settings.METRICS_TOKEN) }, "ready");
  })().catch((error: unknown) => log.error({ err: error }, "jobs could not start"));
}
