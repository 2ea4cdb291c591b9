import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import * as oauth from "oauth4webapi";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// Errors of the authorization endpoint as the clients waiting at their redirect URI read them (RFC 6749
// 4.1.2.1 with RFC 9207's `iss`): openid-client and oauth4webapi validate the issuer and the state of the
// redirect and then raise the error. The consent page sends the browser to checkAuthorizationRequest's
// `redirectTo` by itself only for a client the signed-in user approved before (errorRedirectFor), else shows it as
// a link (e2e/oauth-device.spec.ts reads both in a browser); the decision endpoint answers its own redirect.

const REDIRECT = "http://127.0.0.1:8978/callback";
const insecure = { execute: [client.allowInsecureRequests], algorithm: "oauth2" as const };

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes;
let config: client.Configuration;

beforeAll(async () => {
  server = await serveRoutes({
    "/.well-known/oauth-authorization-server": {
      GET: lazy(() => import("@/app/.well-known/oauth-authorization-server/route"), "GET"),
    },
    "/oauth/register": { POST: lazy(() => import("@/app/oauth/register/route"), "POST") },
    "/oauth/token": { POST: lazy(() => import("@/app/oauth/token/route"), "POST") },
    "/oauth/revoke": { POST: lazy(() => import("@/app/oauth/revoke/route"), "POST") },
    "/v1/oauth/authorize": { POST: lazy(() => import("@/app/v1/oauth/authorize/route"), "POST") },
    "/v1/device/code": { POST: lazy(() => import("@/app/v1/device/code/route"), "POST") },
  });
  process.env.APP_URL = server.url;
  ctx = await useTestDatabase();
  config = await client.dynamicClientRegistration(
    new URL(server.url),
    { redirect_uris: [REDIRECT], client_name: "Waiting connector", token_endpoint_auth_method: "none" },
    client.None(),
    insecure,
  );
});
afterAll(async () => {
  await server?.close();
  await ctx?.teardown();
});

/** An authorization URL as openid-client builds it, with `change` applied to its query. */
async function authorizationQuery(state: string, change: (query: URLSearchParams) => void = () => {}) {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: "api",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  change(url.searchParams);
  return { query: url.searchParams, verifier };
}

async function check(query: URLSearchParams) {
  const { checkAuthorizationRequest } = await import("@/lib/oauth/authorization-request");
  const names = ["client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method"];
  return checkAuthorizationRequest(
    Object.fromEntries([...names, "scope", "resource", "state"].map((name) => [name, query.get(name)])),
  );
}

/** What openid-client makes of the redirect: the error it raises, after checking `iss` and `state`. */
async function openidClientError(callback: URL, state: string, verifier: string) {
  const error = await client
    .authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
    .then(
      () => null,
      (failure: unknown) => failure,
    );
  expect(error).toBeInstanceOf(client.AuthorizationResponseError);
  return error as client.AuthorizationResponseError;
}

describe("the authorization endpoint's errors", () => {
  it("sends every problem after the client and redirect URI back to the redirect URI, with state and iss", async () => {
    const variants: [string, (q: URLSearchParams) => void][] = [
      ["invalid_scope", (q) => q.set("scope", "admin")],
      ["invalid_scope", (q) => q.set("scope", "api offline_access")],
      ["unsupported_response_type", (q) => q.set("response_type", "token")],
      ["unsupported_response_type", (q) => q.delete("response_type")],
      ["invalid_request", (q) => q.delete("code_challenge")],
      ["invalid_request", (q) => q.set("code_challenge", "short")],
      ["invalid_request", (q) => q.set("code_challenge_method", "plain")],
      ["invalid_target", (q) => q.set("resource", "https://other.example/api")],
    ];
    for (const [expected, change] of variants) {
      const state = client.randomState();
      const { query, verifier } = await authorizationQuery(state, change);
      const checked = await check(query);
      expect(checked, query.toString()).toMatchObject({ ok: false, error: expected });
      const redirectTo = checked.ok ? "" : checked.redirectTo!;
      const callback = new URL(redirectTo);
      expect(callback.origin + callback.pathname).toBe(REDIRECT);
      expect(Object.fromEntries(callback.searchParams)).toEqual({
        error: expected,
        error_description: expect.any(String),
        state,
        iss: server.url,
      });
      const error = await openidClientError(callback, state, verifier);
      expect(error.error).toBe(expected);
    }
  });

  it("is read the same way by oauth4webapi (iss and state validated before the error is raised)", async () => {
    const as = await oauth.processDiscoveryResponse(
      new URL(server.url),
      await oauth.discoveryRequest(new URL(server.url), { algorithm: "oauth2", [oauth.allowInsecureRequests]: true }),
    );
    const state = oauth.generateRandomState();
    const { query } = await authorizationQuery(state, (q) => q.set("scope", "everything"));
    const checked = await check(query);
    const callback = new URL(checked.ok ? "" : checked.redirectTo!);
    const registered = { client_id: config.clientMetadata().client_id };
    expect(() => oauth.validateAuthResponse(as, registered, callback, state)).toThrow(
      expect.objectContaining({ error: "invalid_scope" }),
    );
    // A redirect claiming another issuer would be refused by the client before it reads the error.
    const forged = new URL(callback);
    forged.searchParams.set("iss", "https://elsewhere.example");
    expect(() => oauth.validateAuthResponse(as, registered, forged, state)).toThrow(/iss/);
  });

  it("never redirects for an unknown client or a redirect URI the client did not register", async () => {
    const state = client.randomState();
    for (const [expected, change] of [
      ["invalid_client", (q) => q.set("client_id", "vci_madeupmadeupmadeup")],
      ["invalid_client", (q) => q.delete("client_id")],
      ["invalid_redirect_uri", (q) => q.set("redirect_uri", "https://evil.example/cb")],
      ["invalid_redirect_uri", (q) => q.delete("redirect_uri")],
    ] as [string, (q: URLSearchParams) => void][]) {
      const { query } = await authorizationQuery(state, (q) => {
        q.set("scope", "admin");
        change(q);
      });
      const checked = await check(query);
      expect(checked).toEqual({ ok: false, error: expected, description: expect.any(String) });
    }
  });

  it("answers the consent page's decision the same way: deny, a tampered scope or resource go back as errors", async () => {
    const user = await createCaller(ctx.db);
    const decide = async (change: Record<string, string>) => {
      const state = client.randomState();
      const { query, verifier } = await authorizationQuery(state);
      const res = await fetch(new URL("/v1/oauth/authorize", server.url), {
        method: "POST",
        headers: { "content-type": "application/json", ...user.headers },
        body: JSON.stringify({ ...Object.fromEntries(query), ...change }),
      });
      return { res, state, verifier };
    };
    for (const [expected, change] of [
      ["access_denied", { decision: "deny" }],
      ["access_denied", { decision: "deny", scope: "admin" }],
      ["invalid_scope", { scope: "admin" }],
      ["invalid_target", { resource: "https://other.example/" }],
    ] as [string, Record<string, string>][]) {
      const { res, state, verifier } = await decide(change);
      expect(res.status, JSON.stringify(change)).toBe(200);
      const callback = new URL(((await res.json()) as { redirect_to: string }).redirect_to);
      expect((await openidClientError(callback, state, verifier)).error).toBe(expected);
    }
    const unknown = await decide({ redirect_uri: "https://evil.example/cb" });
    expect(unknown.res.status).toBe(400);
    expect(await unknown.res.json()).toMatchObject({ code: "invalid_redirect_uri" });
  });
});

describe("who is sent back by itself", () => {
  /** openid-client's connector, registered by anyone with a redirect URI of its choosing. */
  async function registered(redirect: string, name: string) {
    return client.dynamicClientRegistration(
      new URL(server.url),
      { redirect_uris: [redirect], client_name: name, token_endpoint_auth_method: "none" },
      client.None(),
      insecure,
    );
  }

  /** An authorization request of `of` that fails (an unknown scope), checked as the consent page checks it. */
  async function failing(of: client.Configuration, redirect: string, state: string) {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(of, {
      redirect_uri: redirect,
      scope: "admin",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    return check(url.searchParams);
  }

  it("a client nobody approved (anyone can register one) is never redirected to: its page names it and links back", async () => {
    const { errorRedirectFor } = await import("@/lib/oauth/authorization-request");
    const evil = await registered("https://evil.example/landing", "Evil landing");
    const user = await createCaller(ctx.db);
    const state = client.randomState();
    const checked = await failing(evil, "https://evil.example/landing", state);
    expect(checked).toMatchObject({
      ok: false,
      error: "invalid_scope",
      client: { name: "Evil landing", redirectHost: "evil.example" },
    });
    // Signed out, or signed in without ever approving it: not sent there.
    expect(await errorRedirectFor(checked, null)).toBeNull();
    expect(await errorRedirectFor(checked, user.userId)).toBeNull();
    // The link the page shows carries what the waiting client needs, as oauth4webapi reads it.
    const link = new URL(checked.ok ? "" : checked.redirectTo!);
    expect(link.origin + link.pathname).toBe("https://evil.example/landing");
    const as = await oauth.processDiscoveryResponse(
      new URL(server.url),
      await oauth.discoveryRequest(new URL(server.url), { algorithm: "oauth2", [oauth.allowInsecureRequests]: true }),
    );
    expect(() => oauth.validateAuthResponse(as, { client_id: evil.clientMetadata().client_id }, link, state)).toThrow(
      expect.objectContaining({ error: "invalid_scope" }),
    );
  });

  it("a client this user approved is sent the error by itself, until the user disconnects it", async () => {
    const { errorRedirectFor } = await import("@/lib/oauth/authorization-request");
    const redirect = "http://127.0.0.1:8979/callback";
    const trusted = await registered(redirect, "Trusted connector");
    const user = await createCaller(ctx.db);
    const stranger = await createCaller(ctx.db);

    // The user approves it once, and openid-client takes its tokens.
    const state = client.randomState();
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(trusted, {
      redirect_uri: redirect,
      scope: "api",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const decided = await fetch(new URL("/v1/oauth/authorize", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...user.headers },
      body: JSON.stringify({ ...Object.fromEntries(url.searchParams), decision: "approve" }),
    });
    expect(decided.status).toBe(200);
    const callback = new URL(((await decided.json()) as { redirect_to: string }).redirect_to);
    client.allowInsecureRequests(trusted);
    const tokens = await client.authorizationCodeGrant(trusted, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });

    const errorState = client.randomState();
    const checked = await failing(trusted, redirect, errorState);
    const automatic = await errorRedirectFor(checked, user.userId);
    expect(automatic).not.toBeNull();
    expect(new URL(automatic!).searchParams.get("state")).toBe(errorState);
    // Another user, who never approved it, is not sent there.
    expect(await errorRedirectFor(checked, stranger.userId)).toBeNull();
    // Disconnected (its refresh token revoked, which ends the grant): no longer sent there by itself.
    await client.tokenRevocation(trusted, tokens.refresh_token!);
    expect(await errorRedirectFor(checked, user.userId)).toBeNull();
  });
});

describe("the device endpoint", () => {
  it("refuses a made-up client id shaped like a registered one (400 invalid_client), as openid-client reads it", async () => {
    const made = new client.Configuration(
      config.serverMetadata(),
      "vci_madeupmadeupmadeupmadeup",
      undefined,
      client.None(),
    );
    client.allowInsecureRequests(made);
    await expect(client.initiateDeviceAuthorization(made, { scope: "api" })).rejects.toMatchObject({
      error: "invalid_client",
      status: 400,
    });
    const res = await fetch(new URL("/v1/device/code", server.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "vci_x" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_client", error_description: expect.any(String) });
    expect(await ctx.db.deviceCode.count()).toBe(0);
    // A program's own name (not shaped like a registered client) still starts a login.
    const named = await fetch(new URL("/v1/device/code", server.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "verbatim-cli" }),
    });
    expect(named.status).toBe(200);
  });
});
