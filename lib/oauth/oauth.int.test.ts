import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { sha256Hex } from "@/lib/auth/tokens";

// The authorization server and the device flow, judged by openid-client (a strict third-party client,
// certified OpenID implementation) over real HTTP: the route handlers are served by node:http and
// APP_URL is that server's origin, so the issuer the client validates is the one it talks to.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes & { origin: string };

let issuerUrl: URL;
const insecure = { execute: [client.allowInsecureRequests], algorithm: "oauth2" as const };

beforeAll(async () => {
  const served = await serveRoutes({
    "/.well-known/oauth-authorization-server": {
      GET: lazy(() => import("@/app/.well-known/oauth-authorization-server/route"), "GET"),
    },
    "/oauth/register": { POST: lazy(() => import("@/app/oauth/register/route"), "POST") },
    "/oauth/token": { POST: lazy(() => import("@/app/oauth/token/route"), "POST") },
    "/oauth/revoke": { POST: lazy(() => import("@/app/oauth/revoke/route"), "POST") },
    "/v1/oauth/authorize": { POST: lazy(() => import("@/app/v1/oauth/authorize/route"), "POST") },
    "/v1/device/code": { POST: lazy(() => import("@/app/v1/device/code/route"), "POST") },
    "/v1/device/token": { POST: lazy(() => import("@/app/v1/device/token/route"), "POST") },
    "/v1/device/approve": { POST: lazy(() => import("@/app/v1/device/approve/route"), "POST") },
    "/v1/device/deny": { POST: lazy(() => import("@/app/v1/device/deny/route"), "POST") },
    "/v1/me/api-key": { GET: lazy(() => import("@/app/v1/me/api-key/route"), "GET") },
    "/v1/me/api-key/ensure": { POST: lazy(() => import("@/app/v1/me/api-key/ensure/route"), "POST") },
    "/v1/me/connections": { GET: lazy(() => import("@/app/v1/me/connections/route"), "GET") },
  });
  server = { ...served, origin: served.url };
  process.env.APP_URL = server.origin;
  // This file registers about 30 clients from one address, the oauthRegister row's hourly allowance
  // (rate-limits.int.test.ts tests the rows themselves).
  process.env.RATE_LIMIT_MULTIPLIER = "3";
  ctx = await useTestDatabase();
  issuerUrl = new URL(server.origin);
});

afterAll(async () => {
  await server?.close();
  await ctx?.teardown();
});

const REDIRECT = "http://127.0.0.1:8976/callback";
const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
function postForm(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
}
const apiKeyRead = (token: string) =>
  fetch(`${server.origin}/v1/me/api-key`, { headers: { authorization: `Bearer ${token}` } });

async function registeredClient(metadata: Partial<client.ClientMetadata> = {}) {
  return client.dynamicClientRegistration(
    issuerUrl,
    { redirect_uris: [REDIRECT], client_name: "Test connector", token_endpoint_auth_method: "none", ...metadata },
    client.None(),
    insecure,
  );
}

/** The consent page's decision, as the signed-in user (here by API key), and the browser's next URL. */
async function consent(
  config: client.Configuration,
  user: { headers: Record<string, string> },
  extra: Record<string, string> = {},
) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: "api",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    ...extra,
  });
  expect(url.href.startsWith(`${server.origin}/oauth/authorize?`)).toBe(true);
  const params = Object.fromEntries(url.searchParams);
  const res = await post("/v1/oauth/authorize", { ...params, redirect_uri: params.redirect_uri }, user.headers);
  expect(res.status).toBe(200);
  const { redirect_to } = (await res.json()) as { redirect_to: string };
  return { callback: new URL(redirect_to), verifier, state };
}

async function oauthError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { error?: string; code?: string }).error ?? (error as { code: string }).code;
  }
  throw new Error("expected the request to fail");
}

describe("authorization server metadata and registration", () => {
  it("discovers the RFC 8414 metadata and validates the issuer", async () => {
    const config = await client.discovery(issuerUrl, "unused", undefined, client.None(), insecure);
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(server.origin);
    expect(meta).toMatchObject({
      authorization_endpoint: `${server.origin}/oauth/authorize`,
      token_endpoint: `${server.origin}/oauth/token`,
      registration_endpoint: `${server.origin}/oauth/register`,
      revocation_endpoint: `${server.origin}/oauth/revoke`,
      device_authorization_endpoint: `${server.origin}/v1/device/code`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["api", "extension"],
    });
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]),
    );
    expect(meta.token_endpoint_auth_methods_supported).toContain("none");
  });

  it("registers public clients without a secret and confidential ones with a secret, stored hashed", async () => {
    const pub = await registeredClient();
    expect(pub.clientMetadata().client_id).toMatch(/^vci_/);
    expect(pub.clientMetadata().client_secret).toBeUndefined();

    const conf = await client.dynamicClientRegistration(
      issuerUrl,
      { redirect_uris: ["https://connector.example/cb"], token_endpoint_auth_method: "client_secret_basic" },
      undefined,
      insecure,
    );
    const secret = conf.clientMetadata().client_secret as string;
    expect(secret).toMatch(/^vcs_/);
    const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: conf.clientMetadata().client_id } });
    expect(row.secretHash).toBe(sha256Hex(secret));
  });

  it.each([
    [{ redirect_uris: ["http://connector.example/cb"] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["https://connector.example/cb#frag"] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    [{ redirect_uris: [] }, "invalid_redirect_uri"],
    [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
    [{ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    [{ redirect_uris: "not a list" }, "invalid_client_metadata"],
  ])("refuses registration %j with %s", async (metadata, error) => {
    const res = await post("/oauth/register", metadata);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error, error_description: expect.any(String) });
  });

  it("stores canonical redirect URIs only: what the browser would follow is what was shown", async () => {
    // (Two cases over HTTP, for the 30-an-hour registration limit; redirect-uri.test.ts has the rest.)
    for (const uri of ["https:///cb", "https:evil.example/cb"]) {
      const res = await post("/oauth/register", { redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_redirect_uri" });
    }
    expect(
      await ctx.db.oAuthClient.count({
        where: { redirectUris: { hasSome: ["https:///cb", "https:evil.example/cb"] } },
      }),
    ).toBe(0);
  });

  it("registers the device grant it advertises, and the token endpoint honours each client's grant_types (RFC 7591 2)", async () => {
    const res = await post("/oauth/register", {
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", DEVICE],
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ grant_types: ["authorization_code", DEVICE] });

    // A client registered for the code grant only: no refresh, no device grant.
    const codeOnly = await registeredClient({ grant_types: ["authorization_code"] });
    const clientId = codeOnly.clientMetadata().client_id;
    const device = await postForm("/oauth/token", {
      grant_type: DEVICE,
      device_code: "vdc_whatever",
      client_id: clientId,
    });
    expect(device.status).toBe(400);
    expect(await device.json()).toMatchObject({ error: "unauthorized_client" });
    const refresh = await postForm("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: "vrt_whatever",
      client_id: clientId,
    });
    expect(await refresh.json()).toMatchObject({ error: "unauthorized_client" });
    // ... and the default registration (code + refresh) has no device grant either.
    const defaults = await registeredClient();
    const polled = await postForm("/oauth/token", {
      grant_type: DEVICE,
      device_code: "vdc_whatever",
      client_id: defaults.clientMetadata().client_id,
    });
    expect(await polled.json()).toMatchObject({ error: "unauthorized_client" });
  });

  it("refuses a device code to a registered client without the device grant, before anyone is asked (RFC 8628 3.1)", async () => {
    const before = await ctx.db.deviceCode.count();
    for (const grants of [["authorization_code"], ["authorization_code", "refresh_token"]]) {
      const registered = await registeredClient({ grant_types: grants });
      const refused = await postForm("/v1/device/code", { client_id: registered.clientMetadata().client_id });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "unauthorized_client" });
    }
    expect(await ctx.db.deviceCode.count()).toBe(before);
    // A client that registered it, and the CLI's free-text client_id, get their codes.
    const deviceClient = await registeredClient({ grant_types: [DEVICE] });
    const granted = await postForm("/v1/device/code", { client_id: deviceClient.clientMetadata().client_id });
    expect(granted.status).toBe(200);
    expect((await post("/v1/device/code", { client_id: "verbatim-cli" })).status).toBe(200);
  });
});

describe("the authorization endpoint (the consent page's checks)", () => {
  let config: client.Configuration;
  beforeAll(async () => {
    config = await registeredClient();
  });

  it("shows an unknown client or redirect URI on our own page; every other problem goes back to the client", async () => {
    const { checkAuthorizationRequest } = await import("@/lib/oauth/authorization-request");
    const valid = {
      client_id: config.clientMetadata().client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
      scope: "api",
      resource: null,
      state: "s",
    };
    expect(await checkAuthorizationRequest(valid)).toMatchObject({
      ok: true,
      request: { scope: "api", resource: `${server.origin}/v1`, state: "s" },
    });
    const cases: [Record<string, string | null>, string, boolean][] = [
      [{ client_id: "vci_nope" }, "invalid_client", false],
      [{ redirect_uri: "https://evil.example/cb" }, "invalid_redirect_uri", false],
      [{ response_type: "token" }, "unsupported_response_type", true],
      [{ response_type: null }, "unsupported_response_type", true],
      [{ code_challenge: null }, "invalid_request", true],
      [{ code_challenge_method: "plain" }, "invalid_request", true],
      [{ scope: "api admin" }, "invalid_scope", true],
      [{ resource: "https://other.example/api" }, "invalid_target", true],
    ];
    for (const [change, error, redirected] of cases) {
      const checked = await checkAuthorizationRequest({ ...valid, ...change });
      expect(checked, JSON.stringify(change)).toMatchObject({ ok: false, error, description: expect.any(String) });
      const redirectTo = checked.ok ? undefined : checked.redirectTo;
      if (!redirected) expect(redirectTo, JSON.stringify(change)).toBeUndefined();
      else expect(redirectTo, JSON.stringify(change)).toMatch(new RegExp(`^${REDIRECT}\\?error=${error}&`));
    }
  });

  it("answers a tampered decision with the client's redirect URI and the error; an unknown redirect URI is a 400", async () => {
    const user = await createCaller(ctx.db);
    const base = {
      client_id: config.clientMetadata().client_id,
      redirect_uri: REDIRECT,
      code_challenge: "c".repeat(43),
      state: "s",
    };
    for (const [change, error] of [
      [{ scope: "admin" }, "invalid_scope"],
      [{ resource: "https://other.example/" }, "invalid_target"],
    ] as const) {
      for (const decision of ["approve", "deny"]) {
        const res = await post("/v1/oauth/authorize", { ...base, ...change, decision }, user.headers);
        expect(res.status, `${JSON.stringify(change)} ${decision}`).toBe(200);
        const back = new URL(((await res.json()) as { redirect_to: string }).redirect_to);
        expect(back.searchParams.get("error")).toBe(decision === "deny" ? "access_denied" : error);
        expect(back.searchParams.get("code")).toBeNull();
      }
    }
    const res = await post("/v1/oauth/authorize", { ...base, redirect_uri: "https://evil.example/cb" }, user.headers);
    expect(res.status).toBe(400);
    expect(await res.json()).not.toHaveProperty("redirect_to");
  });
});

describe("authorization code with PKCE", () => {
  it("issues bearer tokens that open /v1, once per code; reuse revokes them", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const { callback, verifier, state } = await consent(config, user);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get("iss")).toBe(server.origin);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("api");
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toMatch(/^vrt_/);
    const me = await apiKeyRead(tokens.access_token);
    expect(me.status).toBe(200);

    const stored = await ctx.db.oAuthToken.findUniqueOrThrow({
      where: { accessTokenHash: sha256Hex(tokens.access_token) },
    });
    expect(stored).toMatchObject({
      userId: user.userId,
      clientId: config.clientMetadata().client_id,
      scope: "api",
      resource: `${server.origin}/v1`,
    });

    expect(
      await oauthError(
        client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
      ),
    ).toBe("invalid_grant");
    expect((await apiKeyRead(tokens.access_token)).status).toBe(401);
  });

  it("grants the browser extension's scope alone: its token uses /v1 and never makes a key; not to the device flow", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient({ scope: "extension", client_name: "Verbatim browser extension" });
    const { callback, verifier, state } = await consent(config, user, { scope: "extension" });
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.scope).toBe("extension");
    expect((await apiKeyRead(tokens.access_token)).status).toBe(200);
    const keys = await ctx.db.apiKey.findMany({ where: { userId: user.userId } });
    const ensure = await post("/v1/me/api-key/ensure", {}, { authorization: `Bearer ${tokens.access_token}` });
    expect(ensure.status).toBe(403);
    expect(await ctx.db.apiKey.findMany({ where: { userId: user.userId } })).toEqual(keys);

    const mixed = await consent(config, user, { scope: "api extension" });
    expect(mixed.callback.searchParams.get("error")).toBe("invalid_scope");
    const device = await postForm("/v1/device/code", { client_id: "verbatim-cli", scope: "extension" });
    expect(device.status).toBe(400);
    expect(await device.json()).toMatchObject({ error: "invalid_scope" });
  });

  it("answers no-store and refuses a wrong verifier, a missing one, another redirect URI and an expired code", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const clientId = config.clientMetadata().client_id;

    const wrong = await consent(config, user);
    expect(
      await oauthError(
        client.authorizationCodeGrant(config, wrong.callback, {
          pkceCodeVerifier: client.randomPKCECodeVerifier(),
          expectedState: wrong.state,
        }),
      ),
    ).toBe("invalid_grant");

    const raw = await consent(config, user);
    const code = raw.callback.searchParams.get("code")!;
    const missing = await postForm("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(missing.status).toBe(400);
    expect(missing.headers.get("cache-control")).toBe("no-store");
    expect(await missing.json()).toMatchObject({ error: "invalid_request" });
    const otherRedirect = await postForm("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: `${REDIRECT}/extra`,
      client_id: clientId,
      code_verifier: raw.verifier,
    });
    expect(await otherRedirect.json()).toMatchObject({ error: "invalid_grant" });
    const ok = await postForm("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: raw.verifier,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");

    const late = await consent(config, user);
    await ctx.db.oAuthAuthorizationCode.update({
      where: { codeHash: sha256Hex(late.callback.searchParams.get("code")!) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      await oauthError(
        client.authorizationCodeGrant(config, late.callback, {
          pkceCodeVerifier: late.verifier,
          expectedState: late.state,
        }),
      ),
    ).toBe("invalid_grant");

    const unsupported = await postForm("/oauth/token", { grant_type: "password", client_id: clientId });
    expect(await unsupported.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("validates the exact redirect URI at authorization (loopback may change port, nothing else)", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient({ redirect_uris: [REDIRECT, "https://connector.example/oauth/cb"] });
    const client_id = config.clientMetadata().client_id;
    const base = { client_id, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", state: "s1" };
    for (const redirect_uri of [
      `${REDIRECT}/extra`,
      "https://connector.example/oauth/cb/extra",
      "https://connector.example/oauth/cb?x=1",
      "https://evil.example/oauth/cb",
      "http://127.0.0.1:8976/other",
    ]) {
      const res = await post("/v1/oauth/authorize", { ...base, redirect_uri }, user.headers);
      expect(res.status, redirect_uri).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_redirect_uri" });
    }
    const port = await post(
      "/v1/oauth/authorize",
      { ...base, redirect_uri: "http://127.0.0.1:51234/callback" },
      user.headers,
    );
    expect(port.status).toBe(200);
    const next = new URL(((await port.json()) as { redirect_to: string }).redirect_to);
    expect(next.origin).toBe("http://127.0.0.1:51234");
    expect(next.searchParams.get("state")).toBe("s1");

    const denied = await post(
      "/v1/oauth/authorize",
      { ...base, redirect_uri: REDIRECT, decision: "deny" },
      user.headers,
    );
    const deniedUrl = new URL(((await denied.json()) as { redirect_to: string }).redirect_to);
    expect(Object.fromEntries(deniedUrl.searchParams)).toEqual({
      error: "access_denied",
      state: "s1",
      iss: server.origin,
    });

    const { findConsentClient } = await import("@/lib/oauth/authorize");
    await expect(findConsentClient("vci_\u0000", REDIRECT)).rejects.toMatchObject({
      status: 400,
      code: "invalid_client",
    });
    await expect(findConsentClient(client_id, `${REDIRECT}/extra`)).rejects.toMatchObject({
      status: 400,
      code: "invalid_redirect_uri",
    });
    const unknown = await post(
      "/v1/oauth/authorize",
      { ...base, client_id: "vci_nope", redirect_uri: REDIRECT },
      user.headers,
    );
    expect(await unknown.json()).toMatchObject({ code: "invalid_client" });
    const anonymous = await post("/v1/oauth/authorize", { ...base, redirect_uri: REDIRECT });
    expect(anonymous.status).toBe(401);
  });

  it("binds tokens to their resource: one for /mcp does not open /v1", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const { callback, verifier, state } = await consent(config, user, { resource: `${server.origin}/mcp` });
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: `${server.origin}/mcp` },
    );
    expect((await apiKeyRead(tokens.access_token)).status).toBe(401);
    const { findUserIdByAccessToken } = await import("@/lib/auth/oauth-tokens");
    expect((await findUserIdByAccessToken(tokens.access_token, `${server.origin}/mcp`))?.userId).toBe(user.userId);

    // An unknown resource goes back to the app as invalid_target (RFC 8707 2, RFC 6749 4.1.2.1).
    const other = await post(
      "/v1/oauth/authorize",
      {
        client_id: config.clientMetadata().client_id,
        redirect_uri: REDIRECT,
        code_challenge: "c".repeat(43),
        resource: "https://other.example/api",
      },
      user.headers,
    );
    expect(other.status).toBe(200);
    const back = new URL(((await other.json()) as { redirect_to: string }).redirect_to);
    expect(back.searchParams.get("error")).toBe("invalid_target");
  });
});

describe("refresh tokens and revocation", () => {
  it("rotates refresh tokens; replaying a used one revokes the whole grant", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const { callback, verifier, state } = await consent(config, user);
    const first = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await apiKeyRead(second.access_token)).status).toBe(200);
    const third = await client.refreshTokenGrant(config, second.refresh_token!);
    expect((await apiKeyRead(third.access_token)).status).toBe(200);

    expect(await oauthError(client.refreshTokenGrant(config, first.refresh_token!))).toBe("invalid_grant");
    expect((await apiKeyRead(third.access_token)).status).toBe(401);
    expect(await oauthError(client.refreshTokenGrant(config, third.refresh_token!))).toBe("invalid_grant");
  });

  it("refuses a refresh by another client and a wider scope", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const { callback, verifier, state } = await consent(config, user);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const intruder = await registeredClient();
    expect(await oauthError(client.refreshTokenGrant(intruder, tokens.refresh_token!))).toBe("invalid_grant");
    expect(await oauthError(client.refreshTokenGrant(config, tokens.refresh_token!, { scope: "api admin" }))).toBe(
      "invalid_scope",
    );
  });

  it("authenticates confidential clients (401 invalid_client on a wrong secret)", async () => {
    const user = await createCaller(ctx.db);
    const conf = await client.dynamicClientRegistration(
      issuerUrl,
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" },
      undefined,
      insecure,
    );
    const meta = conf.clientMetadata();
    const good = new client.Configuration(
      conf.serverMetadata(),
      meta.client_id,
      meta.client_secret as string,
      client.ClientSecretBasic(meta.client_secret as string),
    );
    client.allowInsecureRequests(good);
    const { callback, verifier, state } = await consent(good, user);
    const tokens = await client.authorizationCodeGrant(good, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const bad = new client.Configuration(
      conf.serverMetadata(),
      meta.client_id,
      "vcs_wrong",
      client.ClientSecretBasic("vcs_wrong"),
    );
    client.allowInsecureRequests(bad);
    const res = await postForm(
      "/oauth/token",
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token! },
      { authorization: `Basic ${Buffer.from(`${meta.client_id}:vcs_wrong`).toString("base64")}` },
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_client" });
    // openid-client reports a 401 with a WWW-Authenticate challenge (RFC 6749 5.2) as the challenge.
    const failure = await client.refreshTokenGrant(bad, tokens.refresh_token!).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    expect((failure as client.WWWAuthenticateChallengeError).status).toBe(401);
    expect((await client.refreshTokenGrant(good, tokens.refresh_token!)).access_token).toMatch(/^vat_/);
  });

  it("revokes access tokens, and with a refresh token the whole grant (RFC 7009)", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient();
    const a = await consent(config, user);
    const one = await client.authorizationCodeGrant(config, a.callback, {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    await client.tokenRevocation(config, one.access_token);
    expect((await apiKeyRead(one.access_token)).status).toBe(401);

    const b = await consent(config, user);
    const two = await client.authorizationCodeGrant(config, b.callback, {
      pkceCodeVerifier: b.verifier,
      expectedState: b.state,
    });
    await client.tokenRevocation(config, two.refresh_token!, { token_type_hint: "refresh_token" });
    expect((await apiKeyRead(two.access_token)).status).toBe(401);
    expect(await oauthError(client.refreshTokenGrant(config, two.refresh_token!))).toBe("invalid_grant");
    await client.tokenRevocation(config, "vat_unknown"); // unknown tokens: 200 as well
  });
});

describe("device flow", () => {
  const poll = (device_code: string) => post("/v1/device/token", { device_code });
  const rewindPoll = (deviceCodeHash: string) =>
    ctx.db.deviceCode.update({ where: { deviceCodeHash }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });

  it("runs the RFC 8628 grant end to end with openid-client", async () => {
    const user = await createCaller(ctx.db);
    const config = await registeredClient({ grant_types: [DEVICE, "refresh_token"] });
    expect(config.clientMetadata().grant_types).toEqual([DEVICE, "refresh_token"]);
    const started = await client.initiateDeviceAuthorization(config, { scope: "api" });
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started).toMatchObject({ verification_uri: `${server.origin}/device`, interval: 5, expires_in: 900 });
    expect(started.verification_uri_complete).toBe(`${server.origin}/device?user_code=${started.user_code}`);

    const shown = await ctx.db.deviceCode.findFirstOrThrow({ where: { userCode: started.user_code.replace("-", "") } });
    expect(shown.clientLabel).toBe("Test connector"); // the registered name, not the id

    const typed = ` ${started.user_code.toLowerCase().replace("-", " ")} `;
    const approved = await post("/v1/device/approve", { user_code: typed }, user.headers);
    expect(approved.status).toBe(200);
    expect(await approved.json()).toEqual({ approved: true });

    const tokens = await client.pollDeviceAuthorizationGrant(config, started);
    expect(tokens.token_type).toBe("bearer");
    expect((await apiKeyRead(tokens.access_token)).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await apiKeyRead(refreshed.access_token)).status).toBe(200);
  });

  it("answers authorization_pending, slow_down (interval +5 s), access_denied, expired_token and invalid_grant", async () => {
    const user = await createCaller(ctx.db);
    const start = async () =>
      (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
        device_code: string;
        user_code: string;
      };

    const a = await start();
    const pending = await poll(a.device_code);
    expect(pending.status).toBe(400);
    expect(pending.headers.get("cache-control")).toBe("no-store");
    expect(await pending.json()).toMatchObject({ error: "authorization_pending" });
    expect(await (await poll(a.device_code)).json()).toMatchObject({ error: "slow_down" });
    expect(
      (await ctx.db.deviceCode.findUniqueOrThrow({ where: { deviceCodeHash: sha256Hex(a.device_code) } })).interval,
    ).toBe(10);

    const b = await start();
    const denied = await post("/v1/device/deny", { user_code: b.user_code }, user.headers);
    expect(await denied.json()).toEqual({ approved: false });
    expect(await (await poll(b.device_code)).json()).toMatchObject({ error: "access_denied" });
    expect((await post("/v1/device/approve", { user_code: b.user_code }, user.headers)).status).toBe(404);

    const c = await start();
    await ctx.db.deviceCode.update({
      where: { deviceCodeHash: sha256Hex(c.device_code) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await (await poll(c.device_code)).json()).toMatchObject({ error: "expired_token" });
    expect((await post("/v1/device/approve", { user_code: c.user_code }, user.headers)).status).toBe(404);

    expect(await (await poll("vdc_unknown")).json()).toMatchObject({ error: "invalid_grant" });
    expect((await post("/v1/device/approve", { user_code: "AEIO-U123" }, user.headers)).status).toBe(400);
    expect((await post("/v1/device/approve", { user_code: a.user_code })).status).toBe(401);
    const garbage = await post("/v1/device/token", { device_code: 42 });
    expect(await garbage.json()).toMatchObject({ error: "invalid_request" });
  });

  it("issues the tokens exactly once to concurrent polls, then invalid_grant", async () => {
    const user = await createCaller(ctx.db);
    for (let round = 0; round < 3; round++) {
      const started = (await (await postForm("/v1/device/code", {})).json()) as {
        device_code: string;
        user_code: string;
      };
      await post("/v1/device/approve", { user_code: started.user_code }, user.headers);
      await rewindPoll(sha256Hex(started.device_code));
      const answers = await Promise.all(Array.from({ length: 4 }, () => poll(started.device_code)));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as Record<string, unknown>[];
      const winner = bodies.find((b) => "access_token" in b)!;
      expect(winner).toMatchObject({
        token_type: "Bearer",
        expires_in: 3600,
        scope: "api",
        refresh_token: expect.stringMatching(/^vrt_/),
      });
      await rewindPoll(sha256Hex(started.device_code));
      expect(await (await poll(started.device_code)).json()).toMatchObject({ error: "invalid_grant" });
      const form = await postForm("/oauth/token", {
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: started.device_code,
      });
      expect(await form.json()).toMatchObject({ error: "invalid_grant" });
    }
    expect(await ctx.db.oAuthToken.count({ where: { userId: user.userId } })).toBe(3);
  });
});

describe("a changed APP_URL ends no login", () => {
  it("a CLI login issued under another APP_URL still opens /v1 and refreshes; an MCP-bound one still does not open /v1", async () => {
    const user = await createCaller(ctx.db);
    const started = (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
      device_code: string;
      user_code: string;
    };
    await post("/v1/device/approve", { user_code: started.user_code }, user.headers);
    const login = (await (await post("/v1/device/token", { device_code: started.device_code })).json()) as {
      access_token: string;
      refresh_token: string;
    };
    // The server was at :3000 when this login was made; APP_URL is now this server's origin.
    const before = "http://localhost:3000";
    expect(before).not.toBe(server.origin);
    await ctx.db.oAuthToken.updateMany({ where: { userId: user.userId }, data: { resource: `${before}/v1` } });

    expect((await apiKeyRead(login.access_token)).status).toBe(200);
    const refreshed = await postForm("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: login.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string };
    expect((await apiKeyRead(rotated.access_token)).status).toBe(200);
    // What is issued now is bound under today's APP_URL.
    expect(
      (await ctx.db.oAuthToken.findFirstOrThrow({ where: { userId: user.userId, refreshUsedAt: null } })).resource,
    ).toBe(`${server.origin}/v1`);

    // The binding's role survives the move too: a connector's /mcp token still does not open /v1.
    const config = await registeredClient();
    const { callback, verifier, state } = await consent(config, user, { resource: `${server.origin}/mcp` });
    const mcp = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: `${server.origin}/mcp` },
    );
    const moved = await ctx.db.oAuthToken.updateMany({
      where: { userId: user.userId, clientId: config.clientMetadata().client_id },
      data: { resource: `${before}/mcp` },
    });
    expect(moved.count).toBe(1);
    expect((await apiKeyRead(mcp.access_token)).status).toBe(401);
    const { findUserIdByAccessToken } = await import("@/lib/auth/oauth-tokens");
    expect((await findUserIdByAccessToken(mcp.access_token, `${server.origin}/mcp`))?.userId).toBe(user.userId);
  });
});

describe("connected apps", () => {
  it("lists connectors and device logins with last use, and disconnecting ends every token of the grant", async () => {
    const { callRoute } = await import("@/test/request");
    const revokeRoute = (await import("@/app/v1/me/connections/[id]/route")).DELETE;
    const user = await createCaller(ctx.db);
    const config = await registeredClient({ client_name: "Listed connector" });
    const { callback, verifier, state } = await consent(config, user);
    const first = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const rotated = await client.refreshTokenGrant(config, first.refresh_token!);
    expect((await apiKeyRead(rotated.access_token)).status).toBe(200);

    const started = (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
      device_code: string;
      user_code: string;
    };
    await post("/v1/device/approve", { user_code: started.user_code }, user.headers);
    expect(
      (await (await post("/v1/device/token", { device_code: started.device_code })).json()) as object,
    ).toHaveProperty("access_token");

    const listed = (await (await fetch(`${server.origin}/v1/me/connections`, { headers: user.headers })).json()) as {
      items: { id: string; kind: string; name: string; last_used_at: string | null }[];
    };
    expect(listed.items.map((i) => [i.kind, i.name])).toEqual([
      ["device", "verbatim-cli"],
      ["connector", "Listed connector"],
    ]);
    const connector = listed.items[1];
    expect(connector.last_used_at).not.toBeNull();

    const stranger = await createCaller(ctx.db);
    expect(
      (
        await callRoute(revokeRoute, `/v1/me/connections/${connector.id}`, {
          method: "DELETE",
          headers: stranger.headers,
          params: { id: connector.id },
        })
      ).status,
    ).toBe(404);
    const gone = await callRoute(revokeRoute, `/v1/me/connections/${connector.id}`, {
      method: "DELETE",
      headers: user.headers,
      params: { id: connector.id },
    });
    expect(gone.status).toBe(200);
    expect((gone.json as { revoked: number }).revoked).toBeGreaterThanOrEqual(1);
    expect((await apiKeyRead(rotated.access_token)).status).toBe(401);
    expect(await oauthError(client.refreshTokenGrant(config, rotated.refresh_token!))).toBe("invalid_grant");
    const after = (await (await fetch(`${server.origin}/v1/me/connections`, { headers: user.headers })).json()) as {
      items: unknown[];
    };
    expect(after.items).toHaveLength(1);
  });
});

describe("hostile requests to the token endpoint", () => {
  it("answers every malformed request in the RFC shape, never a 500", async () => {
    const cases: [RequestInit, number, string][] = [
      [
        { headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "refresh_token" }) },
        400,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&grant_type=authorization_code",
        },
        400,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `grant_type=refresh_token&refresh_token=${"x".repeat(70_000)}`,
        },
        413,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `grant_type=refresh_token&refresh_token=${"x".repeat(600)}`,
        },
        400,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&refresh_token=%00%FF",
        },
        400,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&refresh_token=vrt_unknown%FF",
        },
        400,
        "invalid_grant",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Bearer vat_x" },
          body: "grant_type=refresh_token",
        },
        401,
        "invalid_client",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic !!!" },
          body: "grant_type=refresh_token",
        },
        401,
        "invalid_client",
      ],
      [
        {
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${Buffer.from("vci_nope:secret").toString("base64")}`,
          },
          body: "grant_type=refresh_token",
        },
        401,
        "invalid_client",
      ],
      [{ headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" }, 400, "invalid_request"],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&refresh_token=a&client_id=%00",
        },
        400,
        "invalid_request",
      ],
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=refresh_token&refresh_token=a&client_id=%ED%A0%80",
        },
        400,
        "invalid_grant",
      ], // invalid UTF-8 decodes to U+FFFD
      [
        {
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=authorization_code&code=x&redirect_uri=y&code_verifier=z",
        },
        401,
        "invalid_client",
      ],
    ];
    for (const [init, status, error] of cases) {
      const res = await fetch(`${server.origin}/oauth/token`, { method: "POST", ...init });
      expect(res.status, String(init.body).slice(0, 80)).toBe(status);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toMatchObject({ error, error_description: expect.any(String) });
    }
    const device = await post("/v1/device/code", { client_id: "cli\u0000" });
    expect(device.status).toBe(400);
    expect(await device.json()).toMatchObject({ error: "invalid_request" });
    const surrogate = await fetch(`${server.origin}/v1/device/code`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"client_id":"\\ud800"}',
    });
    expect(await surrogate.json()).toMatchObject({ error: "invalid_request" });
    const register = await post("/oauth/register", { redirect_uris: [REDIRECT], client_name: "a\u0000" });
    expect(await register.json()).toMatchObject({ error: "invalid_client_metadata" });
  });
});
