import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// What a team's SCIM token can send that no identity provider would, over real HTTP against the route handlers and
// PostgreSQL: names that reach an object's prototype (in PATCH paths, in the keys of any body, in filters), NUL
// bytes, wrong methods and unknown paths. Each is a SCIM 400/404/405 in SCIM's shape, and the process is as before.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes;
let uninstallGuard: () => void;

const route = (load: () => Promise<Record<string, unknown>>, ...methods: string[]) =>
  Object.fromEntries(methods.map((method) => [method, lazy(load, method)]));
const EVERY_METHOD = ["GET", "POST", "PUT", "PATCH", "DELETE"];

beforeAll(async () => {
  server = await serveRoutes({
    "/scim/v2/Users": route(() => import("@/app/scim/v2/Users/route"), "GET", "POST"),
    "/scim/v2/Users/[id]": route(() => import("@/app/scim/v2/Users/[id]/route"), "GET", "PUT", "PATCH", "DELETE"),
    "/scim/v2/Groups": route(() => import("@/app/scim/v2/Groups/route"), "GET", "POST"),
    "/scim/v2/Groups/[id]": route(() => import("@/app/scim/v2/Groups/[id]/route"), "GET", "PUT", "PATCH", "DELETE"),
    "/scim/v2/ServiceProviderConfig": route(() => import("@/app/scim/v2/ServiceProviderConfig/route"), "GET"),
    "/scim/v2": route(() => import("@/app/scim/v2/[[...path]]/route"), ...EVERY_METHOD),
    "/scim/v2/[...path]": route(() => import("@/app/scim/v2/[[...path]]/route"), ...EVERY_METHOD),
    "/v1/teams/[team_id]/scim": route(() => import("@/app/v1/teams/[team_id]/scim/route"), "POST"),
    "/v1/me/transcriptions": route(() => import("@/app/v1/me/transcriptions/route"), "GET"),
  });
  Object.assign(process.env, { APP_URL: server.url, RATE_LIMIT_MULTIPLIER: "0" });
  ctx = await useTestDatabase();
  // The request guard sits in front of every route in production (instrumentation.ts): it answers wrong methods.
  const { installRequestGuard, routeTable } = await import("@/lib/http/request-guard");
  const { APP_ROUTES } = await import("@/lib/http/app-routes");
  uninstallGuard = installRequestGuard(routeTable(APP_ROUTES));
});

afterAll(async () => {
  uninstallGuard?.();
  await server?.close();
  await ctx?.teardown();
});

const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

/** Every spelling that names a prototype: SCIM compares attribute names without regard to case. */
const SPELLINGS = [
  "__proto__",
  "constructor.prototype",
  "constructor",
  "prototype",
  "__PROTO__",
  "Constructor.Prototype",
];

/** `{"a": {"b": {"polluted": "yes"}}}` for "a.b", as JSON text: JSON.parse makes `__proto__` an own key. */
const nested = (spelling: string, leaf = '{"polluted":"yes"}') =>
  spelling
    .split(".")
    .reverse()
    .reduce((inner, key) => `{${JSON.stringify(key)}:${inner}}`, leaf);
/** The same as an object's members, to put beside others. */
const members = (spelling: string) => nested(spelling).slice(1, -1);

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
const ownNames = () =>
  Object.fromEntries(Object.entries(PROTOTYPES).map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String)]));
const baseline = ownNames();

/** What a request may have written onto a prototype, taken off again (so one failure does not spoil the rest). */
afterEach(() => {
  for (const [name, proto] of Object.entries(PROTOTYPES))
    for (const key of Reflect.ownKeys(proto))
      if (!baseline[name]!.includes(String(key))) delete (proto as Record<PropertyKey, unknown>)[key];
});

function expectPrototypesUntouched() {
  expect(ownNames()).toEqual(baseline);
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(({} as { prototype?: unknown }).prototype).toBeUndefined();
  expect([] as unknown as { polluted?: unknown }).not.toHaveProperty("polluted");
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

interface Sent {
  method: string;
  path: string;
  /** JSON text as sent (an object is stringified, which would drop a literal `__proto__` key). */
  body?: string | object;
}

async function send(token: string, { method, path, body }: Sent) {
  const response = await fetch(`${server.url}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/scim+json",
      ...(body === undefined ? {} : { "content-type": "application/scim+json" }),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    // Not JSON: reported below as it came.
  }
  return { status: response.status, type: response.headers.get("content-type"), json, text };
}

/**
 * Sends each request and returns those not answered as a SCIM 400 with `scimType` (the first failures, with what
 * came back): an empty list when every one was refused.
 */
async function notRefused(token: string, requests: Sent[], scimType: string) {
  const wrong: string[] = [];
  for (const request of requests) {
    const answer = await send(token, request);
    const refused =
      answer.status === 400 &&
      /^application\/scim\+json/.test(answer.type ?? "") &&
      JSON.stringify(answer.json?.schemas) === JSON.stringify([ERROR]) &&
      answer.json?.status === "400" &&
      answer.json?.scimType === scimType &&
      typeof answer.json?.detail === "string";
    if (!refused)
      wrong.push(
        `${request.method} ${request.path} ${JSON.stringify(request.body)} → ${answer.status} ${answer.text.slice(0, 200)}`,
      );
  }
  return wrong;
}

let token: string;
let userId: string;
let groupId: string;
let other: { headers: Record<string, string> };

beforeAll(async () => {
  const owner = await createCaller(ctx.db);
  const teamRow = await ctx.db.user.create({
    data: { kind: "team", name: "Hostile", slug: `scim-hostile-${randomUUID().slice(0, 8)}` },
  });
  await ctx.db.membership.create({ data: { teamId: teamRow.id, userId: owner.userId, role: "owner" } });
  const made = await fetch(`${server.url}/v1/teams/${teamRow.id}/scim`, { method: "POST", headers: owner.headers });
  token = ((await made.json()) as { token: string }).token;
  const user = await send(token, {
    method: "POST",
    path: "/Users",
    body: {
      schemas: [USER, ENTERPRISE],
      userName: `target-${randomUUID()}@example.test`,
      name: { givenName: "Tar", familyName: "Get" },
      emails: [{ primary: true, type: "work", value: `target-${randomUUID()}@example.test` }],
      [ENTERPRISE]: { department: "News" },
      active: true,
    },
  });
  expect(user.status, user.text).toBe(201);
  userId = user.json!.id as string;
  const group = await send(token, {
    method: "POST",
    path: "/Groups",
    body: { schemas: [GROUP], displayName: "Desk", members: [{ value: userId }] },
  });
  expect(group.status, group.text).toBe(201);
  groupId = group.json!.id as string;
  other = await createCaller(ctx.db);
});

const patch = (operations: string) => `{"schemas":[${JSON.stringify(PATCH_OP)}],"Operations":[${operations}]}`;

describe("a name that reaches a prototype", () => {
  it("in a PATCH path of a user, is an invalidPath 400, for add, replace and remove", async () => {
    const paths = SPELLINGS.flatMap((s) => [
      `${s}.polluted`,
      s,
      `name.${s}.polluted`,
      `emails.${s}.polluted`,
      `${USER}:${s}.polluted`,
      `${ENTERPRISE}:${s}.polluted`,
      `emails[${s.split(".")[0]} eq "x"].value`,
      `emails[type eq "work"].${s}`,
      `${s.split(".")[0]}[value eq "x"].polluted`,
    ]);
    const requests = paths.flatMap((path) =>
      ["add", "replace", "Remove"].map((op) => ({
        method: "PATCH",
        path: `/Users/${userId}`,
        body: patch(JSON.stringify({ op, path, value: op === "Remove" ? undefined : "yes" })),
      })),
    );
    const before = await send(token, { method: "GET", path: `/Users/${userId}` });
    expect(await notRefused(token, requests, "invalidPath")).toEqual([]);
    expectPrototypesUntouched();
    expect((await send(token, { method: "GET", path: `/Users/${userId}` })).json).toEqual(before.json);
  });

  it("as a key of a PATCH value of a user (with a path or without), is an invalidValue 400", async () => {
    const operations = SPELLINGS.flatMap((s) => [
      `{"op":"add","value":{${JSON.stringify(`${s}.polluted`)}:"yes"}}`,
      `{"op":"replace","value":${nested(s)}}`,
      `{"op":"add","value":{"name":${nested(s)}}}`,
      `{"op":"add","path":"name","value":{${JSON.stringify(`${s}.polluted`)}:"yes"}}`,
      `{"op":"replace","path":"name","value":${nested(s)}}`,
      `{"op":"add","path":"emails","value":[{"value":"x@example.test",${members(s)}}]}`,
      `{"op":"add","path":${JSON.stringify(ENTERPRISE)},"value":${nested(s)}}`,
    ]);
    const requests = operations.map((operation) => ({
      method: "PATCH",
      path: `/Users/${userId}`,
      body: patch(operation),
    }));
    expect(await notRefused(token, requests, "invalidValue")).toEqual([]);
    expectPrototypesUntouched();
  });

  it("as a key of a user's body (POST, PUT), at any depth, is an invalidValue 400", async () => {
    const bodies = SPELLINGS.flatMap((s) => {
      const base = `"schemas":[${JSON.stringify(USER)}],"userName":"hostile-${randomUUID()}@example.test"`;
      return [
        `{${base},${members(s)}}`,
        `{${base},${JSON.stringify(`${s}.polluted`)}:"yes"}`,
        `{${base},"name":${nested(s)}}`,
        `{${base},"emails":[{"value":"x@example.test",${members(s)}}]}`,
        `{${base},${JSON.stringify(ENTERPRISE)}:${nested(s)}}`,
      ];
    });
    const requests = bodies.flatMap((body) => [
      { method: "POST", path: "/Users", body },
      { method: "PUT", path: `/Users/${userId}`, body },
    ]);
    expect(await notRefused(token, requests, "invalidValue")).toEqual([]);
    expectPrototypesUntouched();
    // Nothing was made.
    expect(await ctx.db.scimUser.count({ where: { userName: { startsWith: "hostile-" } } })).toBe(0);
  });

  it("in a group's PATCH path, PATCH value, or POST and PUT body, is a 400", async () => {
    const paths = SPELLINGS.flatMap((s) => [
      `${s}.polluted`,
      s,
      `members.${s}.polluted`,
      `members[${s.split(".")[0]} eq "x"]`,
      `${GROUP}:${s}.polluted`,
    ]);
    const pathRequests = paths.map((path) => ({
      method: "PATCH",
      path: `/Groups/${groupId}`,
      body: patch(JSON.stringify({ op: "add", path, value: "yes" })),
    }));
    expect(await notRefused(token, pathRequests, "invalidPath")).toEqual([]);

    const valueRequests = SPELLINGS.flatMap((s) => {
      const base = `"schemas":[${JSON.stringify(GROUP)}],"displayName":"Hostile ${randomUUID()}"`;
      return [
        { method: "PATCH", path: `/Groups/${groupId}`, body: patch(`{"op":"replace","value":${nested(s)}}`) },
        {
          method: "PATCH",
          path: `/Groups/${groupId}`,
          body: patch(`{"op":"add","path":"members","value":[{"value":${JSON.stringify(userId)},${members(s)}}]}`),
        },
        { method: "POST", path: "/Groups", body: `{${base},${members(s)}}` },
        {
          method: "POST",
          path: "/Groups",
          body: `{${base},"members":[{"value":${JSON.stringify(userId)},${members(s)}}]}`,
        },
        { method: "PUT", path: `/Groups/${groupId}`, body: `{${base},${JSON.stringify(`${s}.polluted`)}:"yes"}` },
      ];
    });
    expect(await notRefused(token, valueRequests, "invalidValue")).toEqual([]);
    expectPrototypesUntouched();
    expect(await ctx.db.scimGroup.count({ where: { displayName: { startsWith: "Hostile" } } })).toBe(0);
  });

  it("in a filter or a list of attributes, is a 400", async () => {
    const filters = SPELLINGS.flatMap((s) => [
      `${s} eq "x"`,
      `${s}.polluted eq "x"`,
      `emails[${s.split(".")[0]} eq "x"]`,
    ]);
    const filterRequests = filters.flatMap((filter) =>
      ["/Users", "/Groups"].map((path) => ({ method: "GET", path: `${path}?filter=${encodeURIComponent(filter)}` })),
    );
    expect(await notRefused(token, filterRequests, "invalidFilter")).toEqual([]);
    const attributeRequests = SPELLINGS.map((s) => ({
      method: "GET",
      path: `/Groups/${groupId}?excludedAttributes=${encodeURIComponent(`members,${s}`)}`,
    }));
    expect(await notRefused(token, attributeRequests, "invalidPath")).toEqual([]);
    // A value that only says such a word is a value like any other.
    const found = await send(token, {
      method: "GET",
      path: `/Users?filter=${encodeURIComponent('userName eq "__proto__"')}`,
    });
    expect(found).toMatchObject({ status: 200, json: { totalResults: 0 } });
    expectPrototypesUntouched();
  });

  it("leaves another person's reads and the provider's next changes as they were", async () => {
    // The request that used to write onto Object.prototype, once more, then what others do next.
    await send(token, {
      method: "PATCH",
      path: `/Users/${userId}`,
      body: patch('{"op":"add","path":"__proto__.x","value":"y"}'),
    });
    expectPrototypesUntouched();
    const read = await fetch(`${server.url}/v1/me/transcriptions`, {
      headers: other.headers,
      signal: AbortSignal.timeout(10_000),
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ transcriptions: [], total: 0 });
    const renamed = await send(token, {
      method: "PATCH",
      path: `/Users/${userId}`,
      body: patch('{"op":"replace","path":"name.givenName","value":"Still"}'),
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ name: { givenName: "Still", familyName: "Get" } });
    expect(renamed.json).not.toHaveProperty("x");
  });
});

describe("a NUL byte anywhere in a SCIM request", () => {
  it("is an invalidValue 400, not PostgreSQL's error as a 500", async () => {
    const user = await send(token, { method: "GET", path: `/Users/${userId}` });
    const group = await send(token, { method: "GET", path: `/Groups/${groupId}` });
    const nul = "a\u0000b";
    const requests: Sent[] = [
      { method: "POST", path: "/Users", body: { schemas: [USER], userName: `${nul}@example.test` } },
      {
        method: "POST",
        path: "/Users",
        body: { schemas: [USER], userName: `n-${randomUUID()}@example.test`, title: nul },
      },
      {
        method: "POST",
        path: "/Users",
        body: { schemas: [USER], userName: `n-${randomUUID()}@example.test`, name: { [nul]: "key" } },
      },
      {
        method: "PUT",
        path: `/Users/${userId}`,
        body: { schemas: [USER], userName: "x@example.test", externalId: nul },
      },
      {
        method: "PATCH",
        path: `/Users/${userId}`,
        body: { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "displayName", value: nul }] },
      },
      {
        method: "PATCH",
        path: `/Users/${userId}`,
        body: { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { nickName: nul } }] },
      },
      { method: "POST", path: "/Groups", body: { schemas: [GROUP], displayName: nul } },
      { method: "PUT", path: `/Groups/${groupId}`, body: { schemas: [GROUP], displayName: "Desk", externalId: nul } },
      {
        method: "PATCH",
        path: `/Groups/${groupId}`,
        body: { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: nul }] }] },
      },
      { method: "GET", path: `/Users?filter=${encodeURIComponent(`userName eq "${nul}"`)}` },
      { method: "GET", path: `/Groups?filter=${encodeURIComponent(`externalId eq "${nul}"`)}` },
      { method: "GET", path: `/Users/${encodeURIComponent(nul)}` },
      { method: "DELETE", path: `/Groups/${encodeURIComponent(nul)}` },
    ];
    expect(await notRefused(token, requests, "invalidValue")).toEqual([]);
    expect((await send(token, { method: "GET", path: `/Users/${userId}` })).json).toEqual(user.json);
    expect((await send(token, { method: "GET", path: `/Groups/${groupId}` })).json).toEqual(group.json);
  });
});

describe("SCIM's paths and methods", () => {
  it("answers a method a SCIM path does not serve with a 405 in SCIM's shape", async () => {
    for (const [method, path, allow] of [
      ["PATCH", "/Users", "GET, HEAD, OPTIONS, POST"],
      ["DELETE", "/Groups", "GET, HEAD, OPTIONS, POST"],
      ["POST", `/Users/${userId}`, "DELETE, GET, HEAD, OPTIONS, PATCH, PUT"],
      ["PUT", "/ServiceProviderConfig", "GET, HEAD, OPTIONS"],
    ] as const) {
      const response = await fetch(`${server.url}/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
        body: method === "DELETE" ? undefined : "{}",
      });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("content-type")).toMatch(/^application\/scim\+json/);
      expect(response.headers.get("allow")).toBe(allow);
      expect(await response.json()).toEqual({
        schemas: [ERROR],
        status: "405",
        detail: expect.stringContaining(`${method} is not served`),
      });
    }
  });

  it("answers an unknown path under /scim/v2 with a 404 in SCIM's shape, for every method", async () => {
    for (const path of ["", "/", "/Bulk", "/Me", "/users", `/Users/${userId}/groups`, "/Schemas/x/y"])
      for (const method of EVERY_METHOD) {
        const response = await fetch(`${server.url}/scim/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/scim\+json/);
        expect(await response.json()).toEqual({ schemas: [ERROR], status: "404", detail: expect.any(String) });
      }
    // The same rule as every other request for text PostgreSQL cannot hold, in SCIM's shape.
    const nul = await fetch(`${server.url}/scim/v2/Nope%00`, { headers: { authorization: `Bearer ${token}` } });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ schemas: [ERROR], status: "400", scimType: "invalidValue" });
  });
});
