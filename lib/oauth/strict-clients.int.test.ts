import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// The authorization server judged by oauth4webapi (a strict, spec-only client by the author of openid-client
// and jose): RFC 8414 discovery with issuer validation, RFC 7591 registration (the device grant included),
// the code grant with PKCE and RFC 9207's `iss`, refresh, RFC 7009 revocation, the RFC 8628 device grant,
// and a call to the API with the token. The route handlers are served over real HTTP at APP_URL.
// (openid-client runs the same flows in oauth.int.test.ts; the MCP SDK's auth() in lib/mcp/mcp.int.test.ts.)

const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";
const REDIRECT = "http://127.0.0.1:8977/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes;
let as: oauth.AuthorizationServer;

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
    "/v1/device/approve": { POST: lazy(() => import("@/app/v1/device/approve/route"), "POST") },
    "/v1/me": { GET: lazy(() => import("@/app/v1/me/route"), "GET") },
    "/v1/me/api-key/regenerate": { POST: lazy(() => import("@/app/v1/me/api-key/regenerate/route"), "POST") },
  });
  process.env.APP_URL = server.url;
  ctx = await useTestDatabase();
  const issuer = new URL(server.url);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
  );
});
afterAll(async () => {
  await server?.close();
  await ctx?.teardown();
});

async function register(metadata: Partial<oauth.Client>): Promise<oauth.Client> {
  return oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { token_endpoint_auth_method: "none", ...metadata }, insecure),
  );
}

const me = (token: string) =>
  oauth.protectedResourceRequest(token, "GET", new URL("/v1/me", server.url), undefined, undefined, insecure);

describe("oauth4webapi", () => {
  it("discovers the metadata (issuer validated) with every endpoint it needs", () => {
    expect(as.issuer).toBe(server.url);
    expect(as).toMatchObject({
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.grant_types_supported).toContain(DEVICE);
  });

  it("code + PKCE (with iss), a call with the token, refresh and revocation", async () => {
    const user = await createCaller(ctx.db);
    const client = await register({ redirect_uris: [REDIRECT], client_name: "oauth4webapi" });
    expect(client.grant_types).toEqual(["authorization_code", "refresh_token"]);

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "api",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    // The consent page's decision, as the signed-in user (here by API key).
    const decided = await fetch(new URL("/v1/oauth/authorize", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...user.headers },
      body: JSON.stringify(Object.fromEntries(url.searchParams)),
    });
    expect(decided.status).toBe(200);
    const callback = new URL(((await decided.json()) as { redirect_to: string }).redirect_to);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure),
    );
    expect(tokens.token_type).toBe("bearer");
    expect((await me(tokens.access_token)).status).toBe(200);
    // A connector's token uses the service; it cannot mint an API key (lib/http/permissions.ts).
    const mint = await fetch(new URL("/v1/me/api-key/regenerate", server.url), {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(mint.status).toBe(403);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await me(refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
    );
    await expect(me(refreshed.access_token)).rejects.toThrow(oauth.WWWAuthenticateChallengeError);
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
      ),
    ).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("the device grant, for a client that registered it (and not for one that did not)", async () => {
    const user = await createCaller(ctx.db);
    const client = await register({ grant_types: [DEVICE, "refresh_token"], client_name: "oauth4webapi device" });
    expect(client.grant_types).toEqual([DEVICE, "refresh_token"]);

    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: "api" }, insecure),
    );
    const approve = await fetch(new URL("/v1/device/approve", server.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...user.headers },
      body: JSON.stringify({ user_code: started.user_code }),
    });
    expect(approve.status).toBe(200);
    const tokens = await oauth.processDeviceCodeResponse(
      as,
      client,
      await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, insecure),
    );
    expect((await me(tokens.access_token)).status).toBe(200);

    const codeOnly = await register({ redirect_uris: [REDIRECT], grant_types: ["authorization_code"] });
    await expect(
      oauth.processDeviceCodeResponse(
        as,
        codeOnly,
        await oauth.deviceCodeGrantRequest(as, codeOnly, oauth.None(), started.device_code, insecure),
      ),
    ).rejects.toMatchObject({ error: "unauthorized_client" });
  });
});
