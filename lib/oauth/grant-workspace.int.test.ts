import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import { createCaller, createUser, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// The workspace a grant acts in is chosen at consent (the connector's consent page, the device-login approval),
// kept on the code, copied onto the tokens at the exchange and through every refresh, and judged by openid-client
// over real HTTP. Only a team the person can transcribe in may be chosen.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes;
const insecure = { execute: [client.allowInsecureRequests], algorithm: "oauth2" as const };
const REDIRECT = "http://127.0.0.1:8976/callback";

beforeAll(async () => {
  server = await serveRoutes({
    "/.well-known/oauth-authorization-server": {
      GET: lazy(() => import("@/app/.well-known/oauth-authorization-server/route"), "GET"),
    },
    "/oauth/register": { POST: lazy(() => import("@/app/oauth/register/route"), "POST") },
    "/oauth/token": { POST: lazy(() => import("@/app/oauth/token/route"), "POST") },
    "/v1/oauth/authorize": { POST: lazy(() => import("@/app/v1/oauth/authorize/route"), "POST") },
    "/v1/device/code": { POST: lazy(() => import("@/app/v1/device/code/route"), "POST") },
    "/v1/device/token": { POST: lazy(() => import("@/app/v1/device/token/route"), "POST") },
    "/v1/device/approve": { POST: lazy(() => import("@/app/v1/device/approve/route"), "POST") },
    "/v1/me": { GET: lazy(() => import("@/app/v1/me/route"), "GET") },
  });
  process.env.APP_URL = server.url;
  ctx = await useTestDatabase();
});
afterAll(async () => {
  await server?.close();
  await ctx?.teardown();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const me = async (token: string) =>
  (await (await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    id: string;
    workspace: { id: string; kind: string; role: string };
  };

async function personInTeam(role: "member" | "viewer") {
  const person = await createCaller(ctx.db);
  const team = await ctx.db.user.create({ data: { kind: "team", name: "Newsroom" } });
  await ctx.db.membership.create({ data: { teamId: team.id, userId: person.userId, role } });
  return { person, team: team.id };
}

describe("a grant's workspace, chosen at consent", () => {
  it("a connector approved for a team acts in it, through the code exchange and every refresh", async () => {
    const { person, team } = await personInTeam("member");
    const config = await client.dynamicClientRegistration(
      new URL(server.url),
      { redirect_uris: [REDIRECT], client_name: "Team connector", token_endpoint_auth_method: "none" },
      client.None(),
      insecure,
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "api",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const params = Object.fromEntries(url.searchParams);
    const decided = await post("/v1/oauth/authorize", { ...params, workspace_id: team }, person.headers);
    expect(decided.status).toBe(200);
    const callback = new URL(((await decided.json()) as { redirect_to: string }).redirect_to);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(await me(tokens.access_token)).toMatchObject({
      id: person.userId,
      workspace: { id: team, kind: "team", role: "member" },
    });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await me(refreshed.access_token)).workspace).toMatchObject({ id: team, kind: "team" });
    const rows = await ctx.db.oAuthToken.findMany({ where: { userId: person.userId } });
    expect(rows.map((row) => row.workspaceId)).toEqual([team, team]);
  });

  it("a device login approved for a team acts in it; without a choice, in the person's own account", async () => {
    const { person, team } = await personInTeam("member");
    for (const workspace of [team, undefined]) {
      const started = (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
        device_code: string;
        user_code: string;
      };
      const approved = await post(
        "/v1/device/approve",
        { user_code: started.user_code, ...(workspace ? { workspace_id: workspace } : {}) },
        person.headers,
      );
      expect(approved.status).toBe(200);
      const login = (await (await post("/v1/device/token", { device_code: started.device_code })).json()) as {
        access_token: string;
      };
      expect((await me(login.access_token)).workspace).toMatchObject(
        workspace ? { id: team, kind: "team", role: "member" } : { id: person.userId, kind: "person", role: "owner" },
      );
    }
  });

  it("refuses a team the person only views (403) or is not in (404), and approves nothing", async () => {
    const { person, team } = await personInTeam("viewer");
    const stranger = await ctx.db.user.create({ data: { kind: "team", name: "Elsewhere" } });
    const someone = await createUser(ctx.db);
    for (const [workspace, status] of [
      [team, 403],
      [stranger.id, 404],
      [someone.id, 404],
      ["x".repeat(65), 422],
    ] as const) {
      const started = (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
        user_code: string;
      };
      const res = await post(
        "/v1/device/approve",
        { user_code: started.user_code, workspace_id: workspace },
        person.headers,
      );
      expect(res.status, workspace).toBe(status);
      expect(
        (await ctx.db.deviceCode.findUniqueOrThrow({ where: { userCode: started.user_code.replace("-", "") } })).status,
      ).toBe("pending");
    }
  });
});

describe("a grant for a team, once the person is removed from it", () => {
  async function connectorFor(person: { headers: Record<string, string> }, team: string) {
    const config = await client.dynamicClientRegistration(
      new URL(server.url),
      { redirect_uris: [REDIRECT], client_name: "Removed connector", token_endpoint_auth_method: "none" },
      client.None(),
      insecure,
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "api",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const decided = await post(
      "/v1/oauth/authorize",
      { ...Object.fromEntries(url.searchParams), workspace_id: team },
      person.headers,
    );
    expect(decided.status).toBe(200);
    const callback = new URL(((await decided.json()) as { redirect_to: string }).redirect_to);
    return { config, callback, verifier, state };
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: { error?: string; status?: number }) => ({ error: error.error, status: error.status }),
    );

  it("gets no new access token from its refresh token (the token endpoint answers invalid_grant)", async () => {
    const { person, team } = await personInTeam("member");
    const owner = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: team, userId: owner.id, role: "owner" } });
    const { config, callback, verifier, state } = await connectorFor(person, team);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const { removeMember } = await import("@/lib/teams/members");
    await removeMember(team, owner.id, person.userId);
    // Revoked with the removal, in its transaction.
    expect(await ctx.db.oAuthToken.count({ where: { userId: person.userId, revokedAt: null } })).toBe(0);
    expect(await refusal(client.refreshTokenGrant(config, tokens.refresh_token!))).toEqual({
      error: "invalid_grant",
      status: 400,
    });
  });

  it("gets none where the removal revoked nothing (a row from before): a code, a refresh token, a device login", async () => {
    const { person, team } = await personInTeam("member");
    const connector = await connectorFor(person, team);
    const tokens = await client.authorizationCodeGrant(connector.config, connector.callback, {
      pkceCodeVerifier: connector.verifier,
      expectedState: connector.state,
    });
    const pending = await connectorFor(person, team);
    const started = (await (await post("/v1/device/code", { client_id: "verbatim-cli" })).json()) as {
      device_code: string;
      user_code: string;
    };
    expect(
      (await post("/v1/device/approve", { user_code: started.user_code, workspace_id: team }, person.headers)).status,
    ).toBe(200);

    // The membership goes without applyRole: nothing revoked at removal, so the token endpoint is what refuses.
    await ctx.db.membership.delete({ where: { teamId_userId: { teamId: team, userId: person.userId } } });
    expect(await refusal(client.refreshTokenGrant(connector.config, tokens.refresh_token!))).toEqual({
      error: "invalid_grant",
      status: 400,
    });
    expect(
      await refusal(
        client.authorizationCodeGrant(pending.config, pending.callback, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
        }),
      ),
    ).toEqual({ error: "invalid_grant", status: 400 });
    const polled = await post("/v1/device/token", { device_code: started.device_code });
    expect(polled.status).toBe(400);
    expect(await polled.json()).toMatchObject({ error: "invalid_grant" });
    expect(await ctx.db.oAuthToken.count({ where: { userId: person.userId } })).toBe(1);
  });
});
