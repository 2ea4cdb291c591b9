import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { checkResponse } from "@/test/openapi-contract";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// SCIM 2.0 provisioning over real HTTP against the route handlers and PostgreSQL: the request sequences Okta and
// Microsoft Entra ID document for their SCIM validators, replayed with their bodies. No SCIM client library on npm is
// maintained (scimmy and scimgateway are servers; the clients there are years old or vendor-bound), so the identity
// provider is played with fetch, as Okta's Runscope tests and Microsoft's validator send plain HTTP.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let logs: ReturnType<typeof captureLogs>;
let server: ServedRoutes;

const suffix = randomUUID().slice(0, 8);
const ACME = `scim-acme-${suffix}`;
const OTHER = `scim-other-${suffix}`;
/** An Entra group's object id: Entra sends it as the group's externalId (and in the ID token's groups claim). */
const ENTRA_ADMINS = "0cd3c2b5-64a4-4f0e-8c3e-9a3b1a41d2f7";

const route = (load: () => Promise<Record<string, unknown>>, ...methods: string[]) =>
  Object.fromEntries(methods.map((method) => [method, lazy(load, method)]));

beforeAll(async () => {
  server = await serveRoutes({
    "/scim/v2/ServiceProviderConfig": route(() => import("@/app/scim/v2/ServiceProviderConfig/route"), "GET"),
    "/scim/v2/ResourceTypes": route(() => import("@/app/scim/v2/ResourceTypes/route"), "GET"),
    "/scim/v2/Schemas": route(() => import("@/app/scim/v2/Schemas/route"), "GET"),
    "/scim/v2/Users": route(() => import("@/app/scim/v2/Users/route"), "GET", "POST"),
    "/scim/v2/Users/[id]": route(() => import("@/app/scim/v2/Users/[id]/route"), "GET", "PUT", "PATCH", "DELETE"),
    "/scim/v2/Groups": route(() => import("@/app/scim/v2/Groups/route"), "GET", "POST"),
    "/scim/v2/Groups/[id]": route(() => import("@/app/scim/v2/Groups/[id]/route"), "GET", "PUT", "PATCH", "DELETE"),
    "/v1/teams/[team_id]/scim": route(() => import("@/app/v1/teams/[team_id]/scim/route"), "GET", "POST", "DELETE"),
    "/v1/teams/[team_id]": route(() => import("@/app/v1/teams/[team_id]/route"), "GET"),
    "/v1/teams/[team_id]/audit": route(() => import("@/app/v1/teams/[team_id]/audit/route"), "GET"),
    "/v1/me/transcriptions": route(() => import("@/app/v1/me/transcriptions/route"), "GET"),
  });
  Object.assign(process.env, {
    APP_URL: server.url,
    RATE_LIMIT_MULTIPLIER: "0",
    OIDC_TEAM_ROLES: `${ACME}:admin=Verbatim Admins,${ACME}:admin=${ENTRA_ADMINS},${ACME}:viewer=Verbatim Viewers`,
  });
  delete process.env.SMTP_URL;
  ctx = await useTestDatabase();
  logs = captureLogs("info");
});

afterAll(async () => {
  logs?.restore();
  await server?.close();
  await ctx?.teardown();
});

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

async function person(): Promise<Person> {
  const caller = await createCaller(ctx.db);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: caller.userId } });
  return { id: user.id, email: user.email!, headers: caller.headers };
}

async function team(owner: Person, slug: string): Promise<string> {
  const row = await ctx.db.user.create({ data: { kind: "team", name: slug, slug } });
  await ctx.db.membership.create({ data: { teamId: row.id, userId: owner.id, role: "owner" } });
  return row.id;
}

async function v1(method: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${server.url}${path}`, { method, headers });
  const text = await response.text();
  // Under vitest.contract.config.ts, the answer is checked against /openapi.json.
  checkResponse({
    method,
    url: `${server.url}${path}`,
    status: response.status,
    contentType: response.headers.get("content-type"),
    text,
  });
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function scimTokenFor(teamId: string, owner: Person): Promise<string> {
  const made = await v1("POST", `/v1/teams/${teamId}/scim`, owner.headers);
  expect(made.status).toBe(201);
  return made.json.token as string;
}

type ScimBody = Record<string, unknown> & {
  id?: string;
  Resources?: Record<string, unknown>[];
  totalResults?: number;
};

/** A request the way the identity providers send them: SCIM's media type both ways, the bearer token. */
async function scim(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/scim+json",
      ...(body === undefined ? {} : { "content-type": "application/scim+json; charset=utf-8" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    json: (text ? JSON.parse(text) : null) as ScimBody,
  };
}

const q = (filter: string) => encodeURIComponent(filter);

async function roleOf(teamId: string, userId: string) {
  return (await ctx.db.membership.findUnique({ where: { teamId_userId: { teamId, userId } } }))?.role ?? null;
}

async function personOf(scimId: string) {
  return (await ctx.db.scimUser.findUniqueOrThrow({ where: { id: scimId } })).userId;
}

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

let owner: Person;
let acme: string;
let token: string;

beforeAll(async () => {
  owner = await person();
  acme = await team(owner, ACME);
  token = await scimTokenFor(acme, owner);
});

describe("the team's SCIM token", () => {
  it("is made by the owner, shown once, and only its prefix is shown after", async () => {
    const state = await v1("GET", `/v1/teams/${acme}/scim`, owner.headers);
    expect(state.status).toBe(200);
    expect(state.json).toMatchObject({
      exists: true,
      token_prefix: token.slice(0, 15),
      base_url: `${server.url}/scim/v2`,
    });
    expect(state.json).not.toHaveProperty("token");
    const admin = await person();
    await ctx.db.membership.create({ data: { teamId: acme, userId: admin.id, role: "admin" } });
    expect((await v1("POST", `/v1/teams/${acme}/scim`, admin.headers)).status).toBe(403);
    const stranger = await person();
    expect((await v1("GET", `/v1/teams/${acme}/scim`, stranger.headers)).status).toBe(404);
    await ctx.db.membership.delete({ where: { teamId_userId: { teamId: acme, userId: admin.id } } });
  });

  it("does SCIM only, for its own team only; no other credential works at /scim/v2", async () => {
    // The SCIM token is no API key.
    expect((await v1("GET", `/v1/teams/${acme}`, { authorization: `Bearer ${token}` })).status).toBe(401);
    // The owner's API key is no SCIM token.
    const keyAsScim = await scim(owner.headers.authorization.slice("Bearer ".length), "GET", "/Users");
    expect(keyAsScim.status).toBe(401);
    expect(keyAsScim.json).toMatchObject({ schemas: [ERROR], status: "401" });

    // Team B's token sees none of team A's users, and cannot read, change or delete one by its id.
    const otherOwner = await person();
    const other = await team(otherOwner, OTHER);
    const otherToken = await scimTokenFor(other, otherOwner);
    const made = await scim(token, "POST", "/Users", {
      schemas: [USER],
      userName: `a-only-${suffix}@example.test`,
      active: true,
    });
    expect(made.status).toBe(201);
    const id = made.json.id!;
    expect((await scim(otherToken, "GET", `/Users/${id}`)).status).toBe(404);
    expect(
      (await scim(otherToken, "GET", `/Users?filter=${q(`userName eq "a-only-${suffix}@example.test"`)}`)).json
        .totalResults,
    ).toBe(0);
    const deactivate = { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] };
    expect((await scim(otherToken, "PATCH", `/Users/${id}`, deactivate)).status).toBe(404);
    expect((await scim(otherToken, "DELETE", `/Users/${id}`)).status).toBe(404);
    expect(await roleOf(acme, await personOf(id))).toBe("member");
    expect(await roleOf(other, await personOf(id))).toBeNull();
  });

  it("answers 401 from the request after its revocation, and a new one replaces the old", async () => {
    const teamOwner = await person();
    const teamId = await team(teamOwner, `scim-revoke-${suffix}`);
    const first = await scimTokenFor(teamId, teamOwner);
    expect((await scim(first, "GET", "/Users")).status).toBe(200);
    const second = await scimTokenFor(teamId, teamOwner);
    expect((await scim(first, "GET", "/Users")).status).toBe(401);
    expect((await scim(second, "GET", "/Users")).status).toBe(200);
    expect((await v1("DELETE", `/v1/teams/${teamId}/scim`, teamOwner.headers)).status).toBe(204);
    const revoked = await scim(second, "GET", "/Users");
    expect(revoked.status).toBe(401);
    expect(revoked.type).toMatch(/^application\/scim\+json/);
    expect((await v1("GET", `/v1/teams/${teamId}/scim`, teamOwner.headers)).json).toMatchObject({ exists: false });
    const trail = (await v1("GET", `/v1/teams/${teamId}/audit`, teamOwner.headers)).json.events as { action: string }[];
    expect(trail.map((e) => e.action)).toEqual(
      expect.arrayContaining(["scim.token_created", "scim.token_regenerated", "scim.token_revoked"]),
    );
  });
});

describe("Okta's SCIM 2.0 test sequence", () => {
  // The steps and bodies of Okta's "SCIM 2.0 Spec Test" (Runscope), developer.okta.com/standards/SCIM/SCIMFiles/
  // Okta-SCIM-20-SPEC-Test.json, and the deactivation and group pushes of developer.okta.com/docs/api/openapi/
  // okta-scim/guides/scim-20 ("Update a specific user (PATCH)", "Update a specific group name", "Add/Remove members").
  it("lists, filters, creates, refuses a duplicate, answers 404 for an unknown id", async () => {
    // Okta's first step expects a user in the app already.
    const seeded = await scim(token, "POST", "/Users", {
      schemas: [USER],
      userName: `okta-seed-${suffix}@example.test`,
      name: { givenName: "Seed", familyName: "User" },
      emails: [{ primary: true, value: `okta-seed-${suffix}@example.test`, type: "work" }],
      active: true,
    });
    expect(seeded.status).toBe(201);

    const listed = await scim(token, "GET", "/Users?count=1&startIndex=1");
    expect(listed.status).toBe(200);
    expect(listed.type).toMatch(/^application\/scim\+json/);
    expect(listed.json.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:ListResponse"]);
    expect(listed.json).toMatchObject({ itemsPerPage: 1, startIndex: 1 });
    expect(listed.json.totalResults).toBeGreaterThanOrEqual(1);
    expect(listed.json.Resources).toHaveLength(1);
    expect(listed.json.Resources![0]).toHaveProperty("id");
    expect(listed.json.Resources![0]).toHaveProperty("userName");

    const secondPage = await scim(token, "GET", "/Users?count=1&startIndex=2");
    expect(secondPage.json.startIndex).toBe(2);
    expect(secondPage.json.Resources![0]?.id).not.toBe(listed.json.Resources![0].id);

    const existing = await scim(token, "GET", `/Users?filter=${q(`userName eq "okta-seed-${suffix}@example.test"`)}`);
    expect(existing.json.totalResults).toBe(1);
    expect(existing.json.Resources![0].id).toBe(seeded.json.id);
    const absent = await scim(token, "GET", `/Users?filter=${q(`userName eq "${randomUUID()}@example.test"`)}`);
    expect(absent.json).toMatchObject({ totalResults: 0, Resources: [] });

    const userName = `okta-${suffix}@atko.example`;
    const body = {
      schemas: [USER],
      userName,
      name: { givenName: "Okta", familyName: "Tester" },
      emails: [{ primary: true, value: userName, type: "work" }],
      displayName: "Okta Tester",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    };
    const created = await scim(token, "POST", "/Users", body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ userName, active: true, externalId: "00ujl29u0le5T6Aj10h7" });
    expect(created.json).not.toHaveProperty("password");
    const id = created.json.id!;
    expect((await scim(token, "GET", `/Users/${id}`)).json).toMatchObject({ id, userName });
    expect(
      (await scim(token, "GET", `/Users?filter=${q(`externalId eq "00ujl29u0le5T6Aj10h7"`)}`)).json.Resources![0].id,
    ).toBe(id);

    const duplicate = await scim(token, "POST", "/Users", { ...body, userName: userName.toUpperCase() });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({ schemas: [ERROR], status: "409", scimType: "uniqueness" });

    const unknown = await scim(token, "GET", `/Users/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ schemas: [ERROR], status: "404" });
  });

  it("deactivates with a value object: the member is gone and their access to the team ends on the next request", async () => {
    const userName = `okta-deactivate-${suffix}@atko.example`;
    const created = await scim(token, "POST", "/Users", {
      schemas: [USER],
      userName,
      name: { givenName: "Dee", familyName: "Activated" },
      emails: [{ primary: true, value: userName, type: "work" }],
      active: true,
    });
    const id = created.json.id!;
    const personId = await personOf(id);
    expect(await roleOf(acme, personId)).toBe("member");
    // Their own grant for the team: a device login bound to it.
    const { issueTokens } = await import("@/lib/oauth/issue-tokens");
    const { apiResource } = await import("@/lib/auth/resources");
    const grant = await issueTokens(ctx.db, {
      userId: personId,
      clientId: null,
      scope: "api",
      resource: apiResource(),
      deviceLabel: "laptop",
      workspaceId: acme,
    });
    const bearer = { authorization: `Bearer ${grant.access_token}` };
    expect((await v1("GET", "/v1/me/transcriptions", bearer)).status).toBe(200);

    const patched = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(patched.status).toBe(200);
    expect(patched.json.active).toBe(false);
    expect(await roleOf(acme, personId)).toBeNull();
    expect((await v1("GET", "/v1/me/transcriptions", bearer)).status).toBe(401);
    // Still there for the provider, inactive.
    expect(
      (await scim(token, "GET", `/Users?filter=${q(`userName eq "${userName}"`)}`)).json.Resources![0],
    ).toMatchObject({ id, active: false });

    // Okta reactivates the same way, and updates a profile with PUT.
    await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(await roleOf(acme, personId)).toBe("member");
    const put = await scim(token, "PUT", `/Users/${id}`, {
      schemas: [USER],
      id,
      userName,
      name: { givenName: "Dee", familyName: "Renamed" },
      emails: [{ primary: true, value: userName, type: "work" }],
      active: true,
    });
    expect(put.status).toBe(200);
    expect(put.json.name).toEqual({ givenName: "Dee", familyName: "Renamed" });

    const trail = await ctx.db.auditEvent.findMany({ where: { teamId: acme, target: userName } });
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(["member.provisioned", "member.deprovisioned"]));
  });

  it("pushes a group: its members get the role OIDC_TEAM_ROLES gives it, and lose it when removed", async () => {
    const userName = `okta-admin-${suffix}@atko.example`;
    const id = (
      await scim(token, "POST", "/Users", {
        schemas: [USER],
        userName,
        emails: [{ primary: true, value: userName, type: "work" }],
        active: true,
      })
    ).json.id!;
    const personId = await personOf(id);
    const group = await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Okta Staff", members: [] });
    expect(group.status).toBe(201);
    const groupId = group.json.id!;
    await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "add", path: "members", value: [{ value: id, display: userName }] }],
    });
    expect(await roleOf(acme, personId)).toBe("member");

    // Renamed to a name the map gives admin.
    const renamed = await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { id: groupId, displayName: "Verbatim Admins" } }],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.members).toEqual([expect.objectContaining({ value: id })]);
    expect(await roleOf(acme, personId)).toBe("admin");

    // An admin can read the team's key: the key they made stops with the role (lib/membership/role-loss.ts).
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    const teamKey = (await ensureApiKey(acme, { personId })).key!;
    const keyHeaders = { authorization: `Bearer ${teamKey}` };
    expect((await v1("GET", "/v1/me/transcriptions", keyHeaders)).status).toBe(200);

    const removed = await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "remove", path: `members[value eq "${id}"]` }],
    });
    expect(removed.status).toBe(200);
    expect(removed.json.members).toEqual([]);
    expect(await roleOf(acme, personId)).toBe("member");
    expect((await v1("GET", "/v1/me/transcriptions", keyHeaders)).status).toBe(401);

    expect((await scim(token, "DELETE", `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim(token, "GET", `/Groups/${groupId}`)).status).toBe(404);
  });
});

describe("Microsoft Entra ID's SCIM request sequence", () => {
  // The requests of learn.microsoft.com/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups
  // ("User operations", "Group operations": the bodies Entra's provisioning service and its SCIM validator send), with
  // "active" as the string "False" as Entra sends it without the aadOptscim062020 flag (learn.microsoft.com/entra/
  // identity/app-provisioning/application-provisioning-config-problem-scim-compatibility).
  it("creates, reads, filters, patches (multi- and single-valued), disables and deletes a user", async () => {
    const userName = `Test_User_${randomUUID()}`;
    const email = `${userName}@testuser.example`;
    const created = await scim(token, "POST", "/Users", {
      schemas: [USER, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: email }],
      meta: { resourceType: "User" },
      name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
      roles: [],
    });
    expect(created.status).toBe(201);
    expect(created.type).toMatch(/^application\/scim\+json/);
    const id = created.json.id!;
    const personId = await personOf(id);
    expect((await ctx.db.user.findUniqueOrThrow({ where: { id: personId } })).email).toBe(email.toLowerCase());
    expect(await roleOf(acme, personId)).toBe("member");

    expect((await scim(token, "GET", `/Users/${id}`)).json).toMatchObject({ id, userName, active: true });
    const found = await scim(token, "GET", `/Users?filter=${q(`userName eq "${userName}"`)}`);
    expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ id }] });
    expect((await scim(token, "GET", `/Users?filter=${q('userName eq "non-existent user"')}`)).json.totalResults).toBe(
      0,
    );

    const multi = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "updatedEmail@microsoft.example" },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
      ],
    });
    expect(multi.status).toBe(200);
    expect(multi.json.emails).toEqual([{ primary: true, type: "work", value: "updatedEmail@microsoft.example" }]);
    expect(multi.json.name).toMatchObject({ familyName: "updatedFamilyName" });

    const newName = `${randomUUID()}@testuser.example`;
    const single = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "userName", value: newName }],
    });
    expect(single.json.userName).toBe(newName);

    // The validator's uniqueness check: a second user with a taken userName.
    const taken = await scim(token, "POST", "/Users", { schemas: [USER], userName: newName, active: true });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ schemas: [ERROR], status: "409", scimType: "uniqueness" });

    // Their device login for the team works until the disable, and not on the next request after it.
    const grant = await (
      await import("@/lib/oauth/issue-tokens")
    ).issueTokens(ctx.db, {
      userId: personId,
      clientId: null,
      scope: "api",
      resource: (await import("@/lib/auth/resources")).apiResource(),
      deviceLabel: "Entra laptop",
      workspaceId: acme,
    });
    const bearer = { authorization: `Bearer ${grant.access_token}` };
    expect((await v1("GET", "/v1/me/transcriptions", bearer)).status).toBe(200);
    const disabled = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disabled.status).toBe(200);
    expect(disabled.json.active).toBe(false);
    expect(await roleOf(acme, personId)).toBeNull();
    expect((await v1("GET", "/v1/me/transcriptions", bearer)).status).toBe(401);
    expect((await scim(token, "GET", `/Users?filter=${q(`userName eq "${newName}"`)}`)).json.Resources![0].active).toBe(
      false,
    );

    await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "True" }],
    });
    expect(await roleOf(acme, personId)).toBe("member");

    expect((await scim(token, "DELETE", `/Users/${id}`)).status).toBe(204);
    expect(await roleOf(acme, personId)).toBeNull();
    expect((await scim(token, "GET", `/Users/${id}`)).status).toBe(404);
  });

  it("creates a group, finds it by displayName without members, renames it, adds and removes members", async () => {
    const userName = `Test_User_${randomUUID()}@testuser.example`;
    const id = (await scim(token, "POST", "/Users", { schemas: [USER], userName, active: true })).json.id!;
    const personId = await personOf(id);
    const created = await scim(token, "POST", "/Groups", {
      schemas: [GROUP, "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group"],
      externalId: ENTRA_ADMINS,
      displayName: "displayName",
      meta: { resourceType: "Group" },
    });
    expect(created.status).toBe(201);
    const groupId = created.json.id!;
    expect(created.json).toMatchObject({ displayName: "displayName", externalId: ENTRA_ADMINS, members: [] });

    const bare = await scim(token, "GET", `/Groups/${groupId}?excludedAttributes=members`);
    expect(bare.json).toMatchObject({ id: groupId, displayName: "displayName" });
    expect(bare.json).not.toHaveProperty("members");
    const byName = await scim(
      token,
      "GET",
      `/Groups?excludedAttributes=members&filter=${q('displayName eq "displayName"')}`,
    );
    expect(byName.json).toMatchObject({ totalResults: 1, Resources: [{ id: groupId }] });
    expect(byName.json.Resources![0]).not.toHaveProperty("members");

    const renamed = await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: "displayName", value: "1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName" },
      ],
    });
    expect(renamed.json.displayName).toBe("1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName");

    const added = await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Add", path: "members", value: [{ $ref: null, value: id }] }],
    });
    expect(added.status).toBe(200);
    // The group's externalId (Entra's object id) is named by OIDC_TEAM_ROLES: admin.
    expect(await roleOf(acme, personId)).toBe("admin");
    expect((await scim(token, "GET", `/Users/${id}`)).json.groups).toEqual([
      expect.objectContaining({ value: groupId }),
    ]);

    const removed = await scim(token, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Remove", path: "members", value: [{ $ref: null, value: id }] }],
    });
    expect(removed.status).toBe(200);
    expect(await roleOf(acme, personId)).toBe("member");
    expect((await scim(token, "DELETE", `/Groups/${groupId}`)).status).toBe(204);
  });
});

describe("what SCIM may not do", () => {
  it("refuses filters other than eq on userName and externalId with invalidFilter", async () => {
    for (const filter of ['userName co "a"', 'emails.value eq "a@b.c"', 'userName eq "a" or userName eq "b"', "("]) {
      const answer = await scim(token, "GET", `/Users?filter=${q(filter)}`);
      expect(answer.status, filter).toBe(400);
      expect(answer.json, filter).toMatchObject({ schemas: [ERROR], status: "400", scimType: "invalidFilter" });
    }
  });

  it("never lowers or removes the team's last owner, and keeps a hand-set role no group names", async () => {
    const linked = await scim(token, "POST", "/Users", { schemas: [USER], userName: owner.email, active: true });
    expect(linked.status).toBe(201);
    expect(await personOf(linked.json.id!)).toBe(owner.id);
    expect(await roleOf(acme, owner.id)).toBe("owner");
    const id = linked.json.id!;

    const disabled = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(disabled.status).toBe(409);
    expect(disabled.json).toMatchObject({ schemas: [ERROR], status: "409", scimType: "mutability" });
    expect(await roleOf(acme, owner.id)).toBe("owner");
    expect((await scim(token, "GET", `/Users/${id}`)).json.active).toBe(true);

    const viewers = await scim(token, "POST", "/Groups", {
      schemas: [GROUP],
      displayName: "Verbatim Viewers",
      members: [{ value: id }],
    });
    expect(viewers.status).toBe(409);
    expect(await roleOf(acme, owner.id)).toBe("owner");
    expect((await scim(token, "DELETE", `/Users/${id}`)).status).toBe(409);
    expect(await roleOf(acme, owner.id)).toBe("owner");
  });

  it("leaves a provisioned membership to SCIM when the person signs in through the provider", async () => {
    const userName = `signs-in-${suffix}@example.test`;
    const id = (await scim(token, "POST", "/Users", { schemas: [USER], userName, active: true })).json.id!;
    const personId = await personOf(id);
    const { applyTeamRoles } = await import("@/lib/auth/oidc");
    const { env } = await import("@/lib/env");
    // The map names this team and the claim gives no role in it: a sign-in alone would remove the member.
    await applyTeamRoles(personId, { sub: personId, email: userName, groups: [] }, env());
    expect(await roleOf(acme, personId)).toBe("member");
  });

  it("answers discovery in SCIM's shapes", async () => {
    const config = await scim(token, "GET", "/ServiceProviderConfig");
    expect(config.status).toBe(200);
    expect(config.type).toMatch(/^application\/scim\+json/);
    expect(config.json).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    const types = await scim(token, "GET", "/ResourceTypes");
    expect(types.json.Resources!.map((r) => r.id)).toEqual(["User", "Group"]);
    const schemas = await scim(token, "GET", "/Schemas");
    expect(schemas.json.Resources!.map((r) => r.id)).toEqual([USER, GROUP]);
  });

  it("answers a body that is not JSON, or a user without userName, with a SCIM 400", async () => {
    const response = await fetch(`${server.url}/scim/v2/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ schemas: [ERROR], status: "400", scimType: "invalidSyntax" });
    const nameless = await scim(token, "POST", "/Users", { schemas: [USER], active: true });
    expect(nameless.json).toMatchObject({ status: "400", scimType: "invalidValue" });
    const badPatch = await scim(token, "PATCH", `/Users/${randomUUID()}`, { Operations: [] });
    expect(badPatch.json).toMatchObject({ status: "400", scimType: "invalidSyntax" });
  });
});
