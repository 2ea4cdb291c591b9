// The longest single hold of the event loop while one request is handled, for every endpoint that reads a
// body or a query, at its size bound, and for every parser of an untrusted document at its bound. In this
// process, against PostgreSQL, through the real route handlers (as the integration tests call them): each
// endpoint gets every hostile body of event-loop-bodies.ts (a valid call first, so one-time loading and
// compiling is not counted); the figure is the worst hold over its bodies, in ms. No request may hold the
// loop more than 200 ms. The parsers (feeds, captions, podcast transcripts) are in event-loop-parsers.ts.
// Run directly: `npx tsx scripts/bench/event-loop.ts [filter]`; the main bench script imports benchEventLoop().
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { encode } from "next-auth/jwt";
import { createMigratedTestDatabase } from "../../test/pg";
import { formBodies, jsonBodies, MiB, queryStrings, type HostileBody } from "./event-loop-bodies";
import {
  lowestOf,
  measureRequests,
  ORIGIN,
  request,
  RUNS,
  worstHold,
  type Handler,
  type Measured,
} from "./event-loop-hold";
import { benchParsers, benchSpecialRoutes } from "./event-loop-parsers";
import { benchAuthPosts, benchUploadPut } from "./event-loop-streams";

async function credentials(db: Awaited<ReturnType<typeof import("../../lib/db/client").getDb>>) {
  const user = await db.user.create({ data: { email: "event-loop-bench@example.test", name: "bench" } });
  const { ensureApiKey } = await import("../../lib/auth/api-keys");
  const { startSession } = await import("../../lib/auth/sessions");
  const { authSecret } = await import("../../lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(user.id);
  return {
    userId: user.id,
    apiKey: { authorization: `Bearer ${(await ensureApiKey(user.id)).key!}` },
    session: {
      cookie: `${salt}=${await encode({ token: { sub: user.id, sid }, secret: authSecret(), salt })}`,
      origin: ORIGIN,
    },
  };
}

export async function benchEventLoop(filter?: string): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    APP_URL: ORIGIN,
    AUTH_SECRET: "event-loop-bench-secret-event-loop-bench",
    RATE_LIMIT_MULTIPLIER: "0",
    LOG_LEVEL: "error",
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    STRIPE_SECRET_KEY: "sk_test_event_loop_bench",
    STRIPE_PRICE_PRO: "price_pro",
    STRIPE_PRICE_ULTRA: "price_ultra",
    STRIPE_WEBHOOK_SECRET: "whsec_event_loop_bench",
    STRIPE_API_BASE: "http://127.0.0.1:9",
    AUTH_DEV_LOGIN: "true",
    // Where PUT /uploads writes, and its bound for the bench: the hold does not grow with the size.
    DATA_DIR: await mkdtemp(path.join(tmpdir(), "event-loop-bench-")),
    UPLOAD_MAX_BYTES: String(256 * MiB),
  });
  const { getDb } = await import("../../lib/db/client");
  const db = await getDb();
  const figures: Record<string, number> = {};
  const results: Measured[] = [];
  try {
    const who = await credentials(db);
    const { allEndpoints } = await import("../../lib/openapi/endpoints");
    for (const endpoint of allEndpoints) {
      const label = `${endpoint.method} ${endpoint.path}`;
      if (filter && !label.includes(filter)) continue;
      if (!endpoint.body && !endpoint.query) continue;
      const folder = endpoint.path.replace(/\{(\w+)\}/g, "[$1]");
      const routeModule = (await import(`../../app${folder}/route`)) as Record<string, Handler>;
      const handler = routeModule[endpoint.method]!;
      const params = Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, "no-such-thing"]));
      const path = endpoint.path.replace(/\{(\w+)\}/g, "no-such-thing");
      const headers =
        endpoint.auth === "none" ? {} : endpoint.auth === "grants" ? who.session : { ...who.apiKey, origin: ORIGIN };
      const bodies: HostileBody[] = [];
      if (endpoint.body) {
        const { bodyFields } = await import("./event-loop-bodies");
        const fields = bodyFields(endpoint.body);
        const limit = endpoint.oauth ? 64 * 1024 : (endpoint.maxBodyBytes ?? MiB);
        if (endpoint.oauth?.body !== "form") bodies.push(...jsonBodies(fields, limit));
        if (endpoint.oauth) bodies.push(...formBodies(fields, limit));
      }
      const queries = endpoint.query && !endpoint.body ? queryStrings(endpoint.query) : [];
      if (bodies.length === 0 && queries.length === 0) continue;
      const warm = {
        name: "warm-up",
        build: () =>
          request(path, {
            method: endpoint.method,
            headers: { ...headers, "content-type": "application/json" },
            body: endpoint.body ? "{}" : undefined,
          }),
        params,
      };
      await measureRequests(`${label} (warm-up)`, handler, [warm]).catch(() => undefined);
      const measured = await measureRequests(label, handler, [
        ...bodies.map((b) => ({
          name: b.name,
          build: () =>
            request(path, {
              method: endpoint.method,
              headers: { ...headers, "content-type": b.contentType },
              body: b.text,
            }),
          params,
        })),
        ...queries.map((q) => ({
          name: q.name,
          build: () => request(`${path}?${q.query}`, { method: endpoint.method, headers }),
          params,
        })),
      ]);
      results.push(measured);
    }
    results.push(...(await benchSpecialRoutes({ filter, headers: who.apiKey, userId: who.userId })));
    results.push(...(await benchUploadPut(who.userId, filter)), ...(await benchAuthPosts(filter)));
    // What a loaded machine does to every figure: JSON.parse of an ordinary 1 MiB document, in the same run.
    const calibration = JSON.stringify({
      segments: Array.from({ length: 20_000 }, (_, i) => ({ start: i, end: i + 1, text: "a few words here" })),
    });
    figures["calibration: JSON.parse of 1 MiB ms"] = await lowestOf(RUNS, () =>
      worstHold(() => JSON.parse(calibration)),
    );
    results.push(...(await benchParsers(filter)));
    for (const r of results) figures[`${r.label}: worst hold ms`] = r.worstMs;
    const over = results.filter((r) => r.worstMs > 200);
    figures["requests and parsers measured"] = results.length;
    figures["over 200 ms"] = over.length;
    for (const r of over) console.log(`  OVER 200 ms: ${r.label} (${r.worstBody}) ${r.worstMs.toFixed(0)} ms`);
  } finally {
    await db.$disconnect();
    delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
    await database.drop();
    await rm(process.env.DATA_DIR!, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await benchEventLoop(process.argv[2]);
  for (const [label, value] of Object.entries(figures)) console.log(`${label.padEnd(64)} ${value.toFixed(1)}`);
  process.exit(0);
}
