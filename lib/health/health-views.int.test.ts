import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";

// What /health and the dashboard's "What works on this server" say to whom, on a server whose setup fails in
// known ways: YouTube and the outbound proxy refused (port 9, where nothing listens), yt-dlp missing, speech
// recognition off. Anyone gets what works; an operator's browser session (ADMIN_EMAILS) gets the hosts, ports
// and errors too; the operator's own API key does not.

const OPERATOR_EMAIL = "Operator@Example.test";
/** What the failing checks found, which only an operator may read. */
const DETAIL = /127\.0\.0\.1|:9\b|ECONNREFUSED|upstream_refused|proxy|PROXIES|ASR_PROVIDER|YTDLP|yt-dlp/i;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let health: typeof import("@/app/health/route").GET;
let operator: { id: string };
let someone: { id: string };

async function sessionCookie(userId: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(userId);
  return { cookie: `${salt}=${await encode({ token: { sub: userId, sid }, secret: authSecret(), salt })}` };
}

beforeAll(async () => {
  Object.assign(process.env, {
    APP_URL: "http://localhost:3000",
    ADMIN_EMAILS: "someone-else@example.test, operator@example.test",
    YOUTUBE_BASE_URL: "http://127.0.0.1:9",
    OUTBOUND_PROXY: "http://127.0.0.1:9",
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    YOUTUBE_LOOKUP_TIMEOUT_SECONDS: "5",
    YTDLP_PATH: "/nonexistent/yt-dlp",
    ASR_PROVIDER: "off",
  });
  ctx = await useTestDatabase();
  operator = await ctx.db.user.create({ data: { email: OPERATOR_EMAIL } });
  someone = await createUser(ctx.db);
  health = (await import("@/app/health/route")).GET;
  // One round of the setup checks, as the start runs it (instrumentation.ts); /health never waits for one.
  const { lastSetupChecks, refreshSetupChecks } = await import("@/lib/health/setup-check-results");
  await refreshSetupChecks();
  expect(
    lastSetupChecks()
      ?.filter((line) => line.ok === false)
      .map((line) => line.id),
  ).toEqual(expect.arrayContaining(["youtube", "ytdlp", "speech_model", "outbound_proxy"]));
});
afterAll(async () => ctx?.teardown());

describe("/health", () => {
  it("anonymous: its status and what works, never which checks fail or why", async () => {
    const res = await callRoute(health, "/health");
    expect(res.status).toBe(200);
    // Debian's PostgreSQL 15 has no pgvector: the bounded search; a server with it, the HNSW index.
    const [{ pgvector }] = await ctx.db.$queryRawUnsafe<{ pgvector: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS pgvector`,
    );
    expect(res.json).toMatchObject({
      status: "ok",
      database: "ok",
      speech_recognition: "off",
      setup: "degraded",
      youtube_links: "unavailable",
      platform_links: "unavailable",
      files: "unavailable",
      search_by_meaning: "available",
      search_by_meaning_index: pgvector ? "hnsw" : "bounded",
    });
    expect(res.json).not.toHaveProperty("setup_failing");
    expect(res.json).not.toHaveProperty("speech_recognition_note");
    expect(res.text).not.toMatch(DETAIL);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("someone else's session gets the same as anyone", async () => {
    const res = await callRoute(health, "/health", { headers: await sessionCookie(someone.id) });
    expect(res.json).not.toHaveProperty("setup_failing");
    expect(res.text).not.toMatch(DETAIL);
  });

  it("an operator's browser session: which checks fail, what each found and its fix", async () => {
    const res = await callRoute(health, "/health", { headers: await sessionCookie(operator.id) });
    const body = res.json as Record<string, string>;
    expect(body).toMatchObject({ status: "ok", view: "operator", speech_recognition_note: "ASR_PROVIDER=off" });
    expect(body.setup_failing!.split(",")).toEqual(
      expect.arrayContaining(["youtube", "ytdlp", "speech_model", "outbound_proxy"]),
    );
    expect(body.setup_outbound_proxy).toBe("failing: 127.0.0.1:9: ECONNREFUSED");
    expect(body.setup_outbound_proxy_fix).toBe("Start it, or correct OUTBOUND_PROXY.");
    expect(body.setup_youtube).toMatch(/^failing: 127\.0\.0\.1 through the proxy 127\.0\.0\.1:9/);
    for (const value of Object.values(body)) expect(typeof value).toBe("string");
  });

  it("the operator's API key, or a bearer beside the cookie, never gets the detail", async () => {
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    const bearer = { authorization: `Bearer ${(await ensureApiKey(operator.id)).key!}` };
    for (const headers of [bearer, { ...bearer, ...(await sessionCookie(operator.id)) }]) {
      const res = await callRoute(health, "/health", { headers });
      expect(res.json).not.toHaveProperty("view");
      expect(res.text).not.toMatch(DETAIL);
    }
  });

  it("a forged or signed-out session cookie is anyone", async () => {
    const { authSecret } = await import("@/lib/auth/secret");
    const salt = "authjs.session-token";
    // A well-signed token naming the operator but no session row (signed out): not a session.
    const stale = await encode({ token: { sub: operator.id, sid: "gone" }, secret: authSecret(), salt });
    for (const cookie of [`${salt}=${stale}`, `${salt}=not-a-token`]) {
      const res = await callRoute(health, "/health", { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(DETAIL);
    }
  });
});

describe("the dashboard's What works on this server", () => {
  it("is sent to a non-operator's page without any check's finding, and to the operator's with them", async () => {
    const { whatWorksFor } = await import("@/lib/health/what-works");
    const { lastSetupChecks } = await import("@/lib/health/setup-check-results");
    const failing = lastSetupChecks()!.filter((line) => line.ok === false);
    for (const userId of [someone.id, null]) {
      const view = await whatWorksFor(userId, failing);
      expect(view).not.toHaveProperty("problems");
      expect(view.capabilities).toEqual({ youtube: "unavailable", links: "unavailable", files: "unavailable" });
      expect(JSON.stringify(view)).not.toMatch(DETAIL);
    }
    const mine = await whatWorksFor(operator.id, failing);
    expect(mine.problems).toEqual(failing);
    expect(JSON.stringify(mine)).toMatch(/127\.0\.0\.1:9/);
  });
});
