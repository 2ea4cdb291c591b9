import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { callRoute, type CallOptions } from "@/test/request";
import { checkEveryResponse, ContractChecker, type OpenApiDocument } from "@/test/openapi-contract";
import { seedTranscript } from "@/test/publishing";
import type { Endpoint } from "@/lib/http/endpoint";

// The contract test: every operation of /openapi.json is called through its real route handler (in-process,
// as Next.js calls it), with and without credentials, with junk and with valid input, and every answer's
// status, Content-Type and body are checked against the document /openapi.json serves (Ajv). An undocumented
// status, a media type the document does not list, or a body that does not match fails the test.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let allEndpoints: Endpoint[];
let checker: ContractChecker;

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  ctx = await useTestDatabase();
  allEndpoints = (await import("@/lib/openapi/endpoints")).allEndpoints;
  const { GET } = await import("@/app/openapi.json/route");
  checker = new ContractChecker((await GET().json()) as OpenApiDocument);
  checkEveryResponse(checker);
});
afterAll(async () => {
  checkEveryResponse(null);
  await ctx?.teardown();
});

/** A fresh user signed in to the dashboard (the credential every row of the permission table allows). */
async function signedIn() {
  const user = await createUser(ctx.db);
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(user.id);
  const headers = {
    cookie: `${salt}=${await encode({ token: { sub: user.id, sid }, secret: authSecret(), salt })}`,
    origin: "http://localhost:3000",
  };
  return { userId: user.id, headers };
}

/** The route file Next.js serves an operation from: /v1/jobs/{job_id} → app/v1/jobs/[job_id]/route.ts. */
async function handlerOf(method: string, path: string) {
  const folder = path.replace(/\{(\w+)\}/g, "[$1]");
  const routeModule = (await import(/* @vite-ignore */ `@/app${folder}/route`)) as Record<
    string,
    Parameters<typeof callRoute>[0]
  >;
  const handler = routeModule[method];
  if (!handler) throw new Error(`app${folder}/route.ts exports no ${method}`);
  return handler;
}

/** Calls `METHOD /path/with/{param}` with `values` for its parameters (and a query string, if any). */
async function call(operation: string, values: Record<string, string> = {}, options: CallOptions = {}, query = "") {
  const [method, path] = operation.split(" ");
  const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], values[m[1]] ?? "nothing"]));
  const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name])) + query;
  return callRoute(await handlerOf(method, path), url, { method, params, ...options });
}

const operationOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const hasBody = (endpoint: Endpoint) => endpoint.method !== "GET" && endpoint.method !== "DELETE";

describe("every answer is what /openapi.json documents", () => {
  it("for every operation: no credentials, junk input, valid input", async () => {
    expect(allEndpoints).toHaveLength(62);

    // Errors: each operation without credentials, then signed in with unknown ids and an empty or broken body.
    for (const endpoint of allEndpoints) {
      const junk = await signedIn(); // a fresh one each time: some operations end the session
      const body = hasBody(endpoint) ? { body: {} } : {};
      await call(operationOf(endpoint), {}, body);
      await call(operationOf(endpoint), {}, { headers: junk.headers, ...body });
      if (hasBody(endpoint)) await call(operationOf(endpoint), {}, { headers: junk.headers, body: "{not json" });
    }

    // Successes.
    const me = await signedIn();
    const as = { headers: me.headers };
    const transcript = await seedTranscript(ctx.db, me.userId);
    const entry = await ctx.db.historyEntry.findFirstOrThrow({ where: { userId: me.userId } });
    await call("GET /health");
    await call("GET /v1/plans");
    await call("GET /.well-known/oauth-authorization-server");
    await call("GET /v1/me", {}, as);
    await call("POST /v1/me/api-key/ensure", {}, as);
    await call("GET /v1/me/api-key", {}, as);
    await call("POST /v1/me/api-key/regenerate", {}, as);
    await call("GET /v1/me/subscription", {}, as);
    await call("GET /v1/me/connections", {}, as);
    await call("GET /v1/me/transcriptions", {}, as);
    await call("GET /v1/me/search", {}, as, "?q=passion");
    await call("GET /v1/public/search", {}, {}, "?q=passion");
    await call("GET /v1/public/index");
    await call("GET /v1/import", {}, as);
    for (const format of ["json", "text", "srt", "vtt", "md"]) {
      await call("GET /v1/transcripts/{id}", { id: transcript.id }, as, `?format=${format}`);
      await call("GET /v1/transcripts/{id}/download", { id: transcript.id }, as, `?format=${format}`);
    }
    await call("GET /v1/transcripts/{id}/media", { id: transcript.id }, as);
    const segments = transcript.segments as { start: number; end: number; text: string }[];
    await call(
      "PATCH /v1/transcripts/{id}",
      { id: transcript.id },
      { ...as, body: { segments: segments.map((s) => ({ ...s, text: s.text.replace("passion", "PASSION") })) } },
    );
    await call("GET /v1/transcripts/{id}/revisions", { id: transcript.id }, as);
    await call(
      "GET /v1/transcripts/{id}/revisions/{revision_id}/diff",
      { id: transcript.id, revision_id: "current" },
      as,
    );
    await call("DELETE /v1/transcripts/{id}/edits", { id: transcript.id }, as);
    const published = await call(
      "POST /v1/publish",
      {},
      { ...as, body: { url: transcript.sourceUrl, lang: transcript.lang } },
    );
    const slug = (published.json as { slug?: string } | null)?.slug ?? "none";
    await call("GET /v1/public/{slug}", { slug });
    for (const format of ["json", "text", "srt", "vtt", "md"]) {
      await call("GET /v1/public/{slug}/download", { slug }, {}, `?format=${format}`);
    }
    await call("DELETE /v1/publish/{slug}", { slug }, as);
    await call("POST /v1/uploads/sign", {}, { ...as, body: { filename: "talk.mp3", content_type: "audio/mpeg" } });
    const created = await call(
      "POST /v1/me/webhooks",
      {},
      { ...as, body: { url: "https://hooks.example.com/verbatim", event_types: ["transcript.completed"] } },
    );
    const hook = (created.json as { id?: string } | null)?.id ?? "none";
    await call("GET /v1/me/webhooks", {}, as);
    await call("POST /v1/me/webhooks/{id}/test", { id: hook }, as);
    await call("GET /v1/me/webhooks/{id}/deliveries", { id: hook }, as);
    await call("POST /v1/me/webhooks/{id}/rotate-secret", { id: hook }, as);
    await call("POST /v1/me/webhooks/request-secret", {}, as);
    await call("DELETE /v1/me/webhooks/{id}", { id: hook }, as);
    const device = await call("POST /v1/device/code", {}, { body: { client_id: "verbatim-cli" } });
    const { device_code, user_code } = (device.json ?? {}) as { device_code?: string; user_code?: string };
    await call("POST /v1/device/approve", {}, { ...as, body: { user_code } });
    await call("POST /v1/device/token", {}, { body: { device_code } });
    const denied = await call("POST /v1/device/code", {}, { body: { client_id: "verbatim-cli" } });
    await call(
      "POST /v1/device/deny",
      {},
      { ...as, body: { user_code: (denied.json as { user_code?: string }).user_code } },
    );
    const client = await call(
      "POST /oauth/register",
      {},
      { body: { redirect_uris: ["http://127.0.0.1:33418/callback"] } },
    );
    const { client_id } = (client.json ?? {}) as { client_id?: string };
    const redirect_uri = "http://127.0.0.1:33418/callback";
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const authorized = await call(
      "POST /v1/oauth/authorize",
      {},
      {
        ...as,
        body: {
          client_id,
          redirect_uri,
          scope: "api",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", // RFC 7636 appendix B
          code_challenge_method: "S256",
          state: "s",
          decision: "approve",
        },
      },
    );
    const { redirect_to } = (authorized.json ?? {}) as { redirect_to?: string };
    const code = new URL(redirect_to ?? "http://none/").searchParams.get("code") ?? "";
    const tokens = await call(
      "POST /oauth/token",
      {},
      {
        headers: form,
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri,
          code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
          client_id: client_id ?? "",
        }).toString(),
      },
    );
    const { refresh_token } = (tokens.json ?? {}) as { refresh_token?: string };
    await call(
      "POST /oauth/revoke",
      {},
      {
        headers: form,
        body: new URLSearchParams({ token: refresh_token ?? "vrt_unknown", client_id: client_id ?? "" }).toString(),
      },
    );
    const connections = await call("GET /v1/me/connections", {}, as);
    const connection = (connections.json as { items?: { id: string }[] } | null)?.items?.[0]?.id;
    await call("DELETE /v1/me/connections/{id}", { id: connection ?? "none" }, as);
    await call("DELETE /v1/me/transcriptions/{id}", { id: entry.id }, as);
    await call("POST /v1/me/sessions/revoke", {}, as); // last: it ends the session the calls above used

    const operations = new Set([...checker.seen].map((seen) => seen.split(" ").slice(0, 2).join(" ")));
    const succeeded = new Set(
      [...checker.seen]
        .filter((seen) => /^[23]/.test(seen.split(" ")[2]))
        .map((s) => s.split(" ").slice(0, 2).join(" ")),
    );
    const statuses = new Set([...checker.seen].map((seen) => seen.split(" ").slice(0, 3).join(" ")));
    console.log(
      `contract: ${checker.checked} answers, ${operations.size} operations, ${succeeded.size} with a success, ${statuses.size} operation statuses, ${checker.seen.size} status/type pairs; ` +
        `no success: ${allEndpoints
          .map(operationOf)
          .filter((op) => !succeeded.has(op))
          .join(", ")}`,
    );
    expect(checker.mismatches).toEqual([]);
    // What this test covers, so that a change that stops exercising an operation's success shows here.
    expect(succeeded.size).toBeGreaterThanOrEqual(40);
    expect([...operations].sort()).toEqual(allEndpoints.map(operationOf).sort());
  });
});
