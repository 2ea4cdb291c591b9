import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { CREDENTIAL_KINDS, isAllowed, PERMISSIONS, type CredentialKind } from "@/lib/http/permissions";
import type { Endpoint } from "@/lib/http/endpoint";

// The permission table, walked: every operation of the endpoint registry (the one /openapi.json is made
// of) is called through its real route handler with each kind of credential, and the answer must be what
// the table says: a refused kind gets 403 in the contract's {detail, code} shape, an allowed kind gets past
// authentication (whatever the junk input then earns: 404, 422, ... but never 401 or the permission's 403).

// A guard against a hang, not a timing: the walk makes hundreds of requests one after another, and beside the other
// suites on a slow two-core machine it ran past the suite's three minutes (as the role matrix's did).
vi.setConfig({ testTimeout: 10 * 60_000 });

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let allEndpoints: Endpoint[];

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  ctx = await useTestDatabase();
  allEndpoints = (await import("@/lib/openapi/endpoints")).allEndpoints;
});
afterAll(async () => ctx?.teardown());

/** A fresh user and one credential of `kind` for them (a fresh one per call: some calls replace or end it). */
async function credential(kind: CredentialKind): Promise<Record<string, string>> {
  const user = await createUser(ctx.db);
  if (kind === "api_key") {
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    return { authorization: `Bearer ${(await ensureApiKey(user.id)).key!}` };
  }
  if (kind === "session") {
    const { startSession } = await import("@/lib/auth/sessions");
    const { authSecret } = await import("@/lib/auth/secret");
    const salt = "authjs.session-token";
    const sid = await startSession(user.id);
    return {
      cookie: `${salt}=${await encode({ token: { sub: user.id, sid }, secret: authSecret(), salt })}`,
      origin: "http://localhost:3000",
    };
  }
  const { issueTokens } = await import("@/lib/oauth/issue-tokens");
  const { apiResource } = await import("@/lib/oauth/config");
  let clientId: string | null = null;
  if (kind === "oauth_app" || kind === "extension") {
    clientId = `client-${user.id}`;
    await ctx.db.oAuthClient.create({
      data: { id: clientId, name: "Connector", redirectUris: ["https://connector.example/cb"] },
    });
  }
  const tokens = await ctx.db.$transaction((tx) =>
    issueTokens(tx, {
      userId: user.id,
      clientId,
      scope: kind === "extension" ? "extension" : "api",
      resource: apiResource(),
      deviceLabel: clientId ? null : "verbatim-cli",
    }),
  );
  return { authorization: `Bearer ${tokens.access_token}` };
}

/** The route file Next.js serves an operation from: /v1/jobs/{job_id} → app/v1/jobs/[job_id]/route.ts. */
async function handlerOf(endpoint: Endpoint) {
  const folder = endpoint.path.replace(/\{(\w+)\}/g, "[$1]");
  const routeModule = (await import(/* @vite-ignore */ `@/app${folder}/route`)) as Record<
    string,
    Parameters<typeof callRoute>[0]
  >;
  const handler = routeModule[endpoint.method];
  if (!handler) throw new Error(`app${folder}/route.ts exports no ${endpoint.method}`);
  return handler;
}

describe("the permission table", () => {
  it("keeps every administration row to the owner's own credentials", () => {
    for (const [row, kinds] of Object.entries(PERMISSIONS)) {
      if (row === "use" || row === "mcp") continue;
      // Choosing the dashboard's workspace is the browser's own: a session only.
      if (row === "workspace") {
        expect(kinds, row).toEqual(["session"]);
        continue;
      }
      expect(kinds, row).toEqual(["session", "api_key"]);
    }
  });

  it("is what every operation answers, for each kind of credential", async () => {
    const protectedOps = allEndpoints.filter((e) => e.auth !== "none");
    expect(protectedOps.length).toBeGreaterThan(25);
    const outcomes: string[] = [];
    for (const endpoint of protectedOps) {
      const handler = await handlerOf(endpoint);
      const params = Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], "no-such-thing"]));
      const url = endpoint.path.replace(/\{(\w+)\}/g, "no-such-thing");
      for (const kind of CREDENTIAL_KINDS) {
        const hasBody = endpoint.method !== "GET" && endpoint.method !== "DELETE";
        const res = await callRoute(handler, url, {
          method: endpoint.method,
          headers: await credential(kind),
          params,
          ...(hasBody ? { body: {} } : {}),
        });
        const label = `${endpoint.method} ${endpoint.path} with ${kind}: ${res.status} ${res.text.slice(0, 200)}`;
        if (isAllowed(endpoint.auth, kind)) {
          expect(res.status, label).not.toBe(401);
          expect(res.status === 403 && (res.json as { code?: string }).code === "forbidden", label).toBe(false);
          expect(res.status, label).not.toBe(500);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.json, label).toEqual({
            detail: expect.stringContaining("sign in to the dashboard"),
            code: "forbidden",
          });
        }
        outcomes.push(`${endpoint.auth}:${kind}:${isAllowed(endpoint.auth, kind) ? "allowed" : "refused"}`);
      }
    }
    // Delegated tokens were refused somewhere (key, sessions, connections, billing, grants) and allowed for use.
    for (const row of ["api_keys", "sessions", "connections", "billing", "grants"]) {
      expect(outcomes, row).toContain(`${row}:oauth_app:refused`);
      expect(outcomes, row).toContain(`${row}:device_login:refused`);
      expect(outcomes, row).toContain(`${row}:extension:refused`);
      expect(outcomes, row).toContain(`${row}:api_key:allowed`);
    }
    // The extension's token manages no team either, and never opens the MCP endpoint.
    expect(outcomes).toContain("teams:extension:refused");
    expect(outcomes).toContain("use:oauth_app:allowed");
    expect(outcomes).toContain("use:device_login:allowed");
    expect(outcomes).toContain("use:extension:allowed");
  });

  it("a per-request webhook_url follows the table's webhooks row: a delegated token gets 403, nothing is started", async () => {
    const withFields = allEndpoints.filter((e) => e.fieldAuth && Object.keys(e.fieldAuth).length > 0);
    expect(withFields.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      "PATCH /v1/follows/{id}",
      "POST /v1/batches",
      "POST /v1/follows",
      "POST /v1/import",
      "POST /v1/transcript",
    ]);
    const bodies: Record<string, Record<string, string>> = {
      "/v1/transcript": { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      "/v1/import": { url: "https://feeds.example.com/show.xml" },
      "/v1/batches": { text: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      "/v1/follows": { url: "https://feeds.example.com/show.xml" },
      "/v1/follows/{id}": {},
    };
    const jobsBefore = await ctx.db.job.count();
    const importsBefore = await ctx.db.importBatch.count();
    const followsBefore = await ctx.db.follow.count();
    for (const endpoint of withFields) {
      const handler = await handlerOf(endpoint);
      const params = Object.fromEntries([...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], "no-such-thing"]));
      for (const [field, permission] of Object.entries(endpoint.fieldAuth!)) {
        for (const kind of CREDENTIAL_KINDS) {
          const headers = await credential(kind);
          const res = await callRoute(handler, endpoint.path.replace(/\{(\w+)\}/g, "no-such-thing"), {
            method: endpoint.method,
            headers,
            params,
            body: { ...bodies[endpoint.path], [field]: "https://hooks.example.com/verbatim" },
          });
          const label = `${endpoint.method} ${endpoint.path} with ${field}, ${kind}: ${res.status} ${res.text.slice(0, 200)}`;
          if (isAllowed(permission, kind) && endpoint.path === "/v1/follows/{id}") {
            // Past the permission check: no such follow.
            expect(res.status, label).toBe(404);
          } else if (isAllowed(permission, kind)) {
            // Past the permission check: refused for want of a request signing secret (422), as before.
            expect(res.status, label).toBe(422);
            expect(res.text, label).toContain("request signing secret");
          } else if (!isAllowed(endpoint.auth, kind)) {
            // The operation itself is refused to this credential (POST /v1/batches: the owner's own), field or not.
            expect(res.status, label).toBe(403);
            expect(res.json, label).toMatchObject({ code: "forbidden" });
          } else {
            expect(res.status, label).toBe(403);
            expect(res.json, label).toEqual({ detail: expect.stringContaining(field), code: "forbidden" });
          }
        }
      }
    }
    // Nothing was started for a refused request: no job, no history entry, no import, no follow.
    expect(await ctx.db.job.count()).toBe(jobsBefore);
    expect(await ctx.db.importBatch.count()).toBe(importsBefore);
    expect(await ctx.db.follow.count()).toBe(followsBefore);
  });

  it("a connector's token cannot mint an API key, and disconnecting the app ends everything it could do", async () => {
    const headers = await credential("oauth_app");
    const { POST: regenerate } = await import("@/app/v1/me/api-key/regenerate/route");
    const { POST: ensure } = await import("@/app/v1/me/api-key/ensure/route");
    const { POST: endSessions } = await import("@/app/v1/me/sessions/revoke/route");
    expect((await callRoute(regenerate, "/v1/me/api-key/regenerate", { method: "POST", headers })).status).toBe(403);
    expect((await callRoute(ensure, "/v1/me/api-key/ensure", { method: "POST", headers })).status).toBe(403);
    expect((await callRoute(endSessions, "/v1/me/sessions/revoke", { method: "POST", headers })).status).toBe(403);
    const token = await ctx.db.oAuthToken.findFirstOrThrow({
      where: { clientId: { not: null } },
      orderBy: { createdAt: "desc" },
    });
    expect(await ctx.db.apiKey.count({ where: { userId: token.userId } })).toBe(0);
  });
});
