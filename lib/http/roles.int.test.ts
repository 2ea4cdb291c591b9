import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { roleFixtureMakers } from "@/test/role-fixtures";
import { callRoute } from "@/test/request";
import { startDnsServer, type TestDnsServer } from "@/test/dns-server";
import {
  isAllowed,
  KEY_SCOPES,
  requiredRole,
  requiredScope,
  roleMeets,
  type CredentialKind,
  type KeyScope,
  type Role,
  type RoleRequirement,
} from "@/lib/http/permissions";
import type { Endpoint } from "@/lib/http/endpoint";
import type { TeamRole } from "@/lib/generated/prisma/client";

// The role matrix, walked: every operation of the endpoint registry (the one /openapi.json is made of) is called
// through its real route handler by each kind of caller of a team (owner, admin, member, viewer, the team's API
// key, a person who is not a member), with the team's own ids, and by the team's owner with another team's ids.
// What each must answer is read from the role table (lib/http/permissions.ts), so an operation added tomorrow is
// walked too; one whose path names an id no fixture below makes fails until it gets one.

// A guard against a hang, not a timing: the matrices make about a thousand requests one after another, and beside
// the other suites on two cores one took over three minutes.
vi.setConfig({ testTimeout: 10 * 60_000 });

let dns: TestDnsServer | undefined;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let allEndpoints: Endpoint[];
let examples: Record<string, Record<string, unknown>>;

interface Team {
  id: string;
  people: Record<TeamRole, string>;
}
let team: Team;
let otherTeam: Team;
let outsider: string;

async function makeTeam(name: string): Promise<Team> {
  const row = await ctx.db.user.create({
    data: { kind: "team", name, slug: `${name}-${Math.random().toString(36).slice(2, 8)}` },
  });
  const people = {} as Record<TeamRole, string>;
  for (const role of ["owner", "admin", "member", "viewer"] as const) {
    const person = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: row.id, userId: person.id, role } });
    people[role] = person.id;
  }
  return { id: row.id, people };
}

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  // The matrix calls each operation many times in a minute for one account: it judges roles, not rate limits.
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  // A team's domain is checked against a DNS server of the test's (that has no record: a 422, found at once).
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  ctx = await useTestDatabase();
  FIXTURE_MAKERS = roleFixtureMakers(ctx.db);
  allEndpoints = (await import("@/lib/openapi/endpoints")).allEndpoints;
  examples = (await import("@/lib/openapi/examples")).REQUEST_BODY_EXAMPLES;
  team = await makeTeam("newsroom");
  otherTeam = await makeTeam("rivals");
  outsider = (await createUser(ctx.db)).id;
});
afterAll(async () => {
  await ctx?.teardown();
  await dns?.close();
});

/** A fresh browser session of `personId` (some operations end it), acting in `workspace` when given. */
async function session(personId: string, workspace?: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const { WORKSPACE_COOKIE } = await import("@/lib/membership/workspace");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return {
    cookie: workspace ? `${cookie}; ${WORKSPACE_COOKIE}=${workspace}` : cookie,
    origin: "http://localhost:3000",
  };
}

/** A fresh key of the account (an earlier call may have replaced it). */
async function accountKey(accountId: string): Promise<Record<string, string>> {
  const { regenerateApiKey } = await import("@/lib/auth/api-keys");
  return { authorization: `Bearer ${(await regenerateApiKey(accountId)).key!}` };
}

/** For a refused key: whether its row is still there, so that a failure says whether the key or its lookup went. */
async function keyState(headers: Record<string, string>): Promise<string> {
  const key = headers.authorization?.replace(/^Bearer /, "");
  if (!key) return "";
  const { sha256Hex } = await import("@/lib/auth/tokens");
  const row = await ctx.db.apiKey.findFirst({ where: { hash: sha256Hex(key) }, select: { id: true } });
  return row ? " (the key's row is there)" : " (the key's row is gone)";
}

type Ids = Record<string, string>;
let FIXTURE_MAKERS: ReturnType<typeof roleFixtureMakers>;

/** One of each thing a path can name, in `accountId`'s library, each made the first time a path asks for its kind. */
type Fixtures = (prefix: string) => Promise<Ids>;

function fixtures(accountId: string, personId: string): Fixtures {
  const made = new Map<string, Promise<Ids>>();
  return (prefix) => {
    const maker = FIXTURE_MAKERS[prefix];
    if (!maker) throw new Error(`no fixture maker for ${prefix}`);
    const found = made.get(prefix) ?? maker(accountId, personId);
    made.set(prefix, found);
    return found;
  };
}

/**
 * Fixtures for each person, made again only after a call that may have used them up: a change that succeeded. A
 * read, or a call refused, leaves them as they were (and a refused call that changed something fails its cell).
 */
function fixturesUntilChanged(accountId: string) {
  const made = new Map<string, Fixtures>();
  return {
    of(personId: string): Fixtures {
      const found = made.get(personId) ?? fixtures(accountId, personId);
      made.set(personId, found);
      return found;
    },
    after(method: string, status: number) {
      if (method !== "GET" && status < 400) made.clear();
    },
  };
}

/** The path's first part that FIXTURE_MAKERS knows it by. */
const fixtureKind = (endpoint: Endpoint) =>
  Object.keys(FIXTURE_MAKERS).find((prefix) => endpoint.path.startsWith(`${prefix}/`));

async function paramsFor(endpoint: Endpoint, things: Fixtures): Promise<Record<string, string>> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return {};
  const prefix = fixtureKind(endpoint);
  const found = prefix ? await things(prefix) : undefined;
  const params = Object.fromEntries(names.map((name) => [name, found?.[name]]));
  for (const [name, value] of Object.entries(params))
    if (!value) throw new Error(`${endpoint.method} ${endpoint.path}: no fixture makes a {${name}}; add one`);
  return params as Record<string, string>;
}

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

/** The body sent: the documented example where the path names a thing (the answer must be about that thing); else {}. */
function bodyFor(endpoint: Endpoint): unknown {
  if (endpoint.method === "GET" || endpoint.method === "DELETE") return undefined;
  if (!endpoint.body) return undefined;
  return /\{\w+\}/.test(endpoint.path) ? (examples[`${endpoint.method} ${endpoint.path}`] ?? {}) : {};
}

type CallerName = "owner" | "admin" | "member" | "viewer" | "team_key" | "non_member";
const CALLERS: CallerName[] = ["owner", "admin", "member", "viewer", "team_key", "non_member"];

/** Who a caller is to the table: their credential kind, role in the account acted in, and whether a person is behind it. */
function standing(caller: CallerName): { kind: CredentialKind; role: Role; hasPerson: boolean } {
  if (caller === "team_key") return { kind: "api_key", role: "admin", hasPerson: false };
  // A person who is not a member acts in their own account, as its owner.
  if (caller === "non_member") return { kind: "session", role: "owner", hasPerson: true };
  return { kind: "session", role: caller, hasPerson: true };
}

async function credentialOf(caller: CallerName): Promise<Record<string, string>> {
  if (caller === "team_key") return accountKey(team.id);
  if (caller === "non_member") return session(outsider, team.id);
  return session(team.people[caller], team.id);
}

/** Operations that answer 404 about the fixture itself, found (not "no such id"): what their answer says. */
const OWN_404: Record<string, RegExp> = {
  // The fixture is a captioned video's transcript, not an upload's.
  "GET /v1/transcripts/{id}/media": /not of an uploaded file/,
  // The body's documented example names the new owner by an id no member of the fixture team has.
  "POST /v1/teams/{team_id}/transfer": /No member with this id/,
};

const ROLE_REFUSAL = /needs the (owner|admin|member) role in this team|is a person's own/;

describe("the role matrix", () => {
  it("the role table is the teams contract: reading a viewer's, using a member's, administration an admin's, money the owner's", () => {
    // Written here apart from lib/http/permissions.ts, so a change of the table that breaks the contract fails.
    const contract = (e: Endpoint): RoleRequirement | null => {
      if (e.auth === "none") return null;
      const p = e.path;
      const own = ["/v1/me/sessions", "/v1/me/connections", "/v1/device/", "/v1/oauth/", "/v1/me/workspace"];
      // Team management is a person's; its handlers check the role in the team the path names.
      if ([...own, "/v1/teams", "/v1/invitations"].some((x) => p.startsWith(x))) return "person";
      if (["/v1/checkout", "/v1/me/portal", "/v1/me/subscription/"].some((x) => p.startsWith(x))) return "owner";
      if (["/v1/me/webhooks", "/v1/me/api-key", "/v1/exports/destinations"].some((x) => p.startsWith(x)))
        return "admin";
      if (p.startsWith("/v1/follows") && e.method !== "GET") return "admin";
      // A show given to an alert is followed when it is not yet: a follow made.
      if (p === "/v1/alerts/{id}/follows") return "admin";
      // An export reads, by POST only for its selection's body.
      if (p === "/v1/exports") return "viewer";
      return e.method === "GET" ? "viewer" : "member";
    };
    const counts: Record<string, number> = {};
    for (const e of allEndpoints) {
      const role = requiredRole(e.method, e.path, e.auth);
      expect(role, `${e.method} ${e.path}`).toBe(contract(e));
      counts[String(role)] = (counts[String(role)] ?? 0) + 1;
    }
    console.log(`roles by operation: ${JSON.stringify(counts)}`);
  });

  it("every operation × every caller of a team answers as the role table says", async () => {
    const operations = allEndpoints.filter((e) => e.auth !== "none");
    expect(operations.length).toBeGreaterThan(50);
    const cells: string[] = [];
    const failures: string[] = [];
    const things = fixturesUntilChanged(team.id);
    for (const endpoint of operations) {
      const handler = await handlerOf(endpoint);
      const needed: RoleRequirement | null = requiredRole(endpoint.method, endpoint.path, endpoint.auth);
      for (const caller of CALLERS) {
        const who = standing(caller);
        const personId =
          caller === "team_key" ? team.people.owner : caller === "non_member" ? outsider : team.people[caller];
        const named = /\{\w+\}/.test(endpoint.path);
        const params = named ? await paramsFor(endpoint, things.of(personId)) : {};
        const url = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]);
        const res = await callRoute(handler, url, {
          method: endpoint.method,
          headers: await credentialOf(caller),
          params,
          body: bodyFor(endpoint),
        });
        things.after(endpoint.method, res.status);
        const detail = String((res.json as { detail?: unknown } | null)?.detail ?? "");
        const label = `${endpoint.method} ${endpoint.path} as ${caller}: ${res.status} ${res.text.slice(0, 200)}`;
        const kindAllowed = isAllowed(endpoint.auth, who.kind);
        const roleAllowed = roleMeets(needed, who.role, who.hasPerson);
        let expected: string;
        if (!kindAllowed) {
          expected = "403 credential";
          if (res.status !== 403 || ROLE_REFUSAL.test(detail)) failures.push(`expected ${expected}: ${label}`);
        } else if (!roleAllowed) {
          expected = `403 ${needed}`;
          if (res.status !== 403 || !ROLE_REFUSAL.test(detail) || (res.json as { code?: string }).code !== "forbidden")
            failures.push(`expected ${expected}: ${label}`);
        } else if (
          caller === "non_member" &&
          Object.keys(params).length > 0 &&
          !endpoint.path.startsWith("/v1/me/connections")
        ) {
          // Acting in their own account, the team's ids are nobody's they know of: 404, never a leak.
          expected = "404";
          if (res.status !== 404) failures.push(`expected 404 (not a member): ${label}`);
        } else {
          expected = "allowed";
          // Team management checks the role in the team its path names itself (its own tests walk those roles).
          const managesTeams = endpoint.path.startsWith("/v1/teams/");
          if ([401, 500].includes(res.status) || (res.status === 403 && ROLE_REFUSAL.test(detail) && !managesTeams))
            failures.push(`expected allowed: ${label}`);
          if (
            Object.keys(params).length > 0 &&
            res.status === 404 &&
            !OWN_404[`${endpoint.method} ${endpoint.path}`]?.test(detail)
          )
            failures.push(`expected its own ids found: ${label}`);
        }
        cells.push(`${endpoint.method} ${endpoint.path} | ${caller} | ${expected} | ${res.status}`);
      }
    }
    console.log(`role matrix: ${operations.length} operations × ${CALLERS.length} callers = ${cells.length} cells`);
    expect(failures).toEqual([]);
    // The table refuses somewhere for each role below the owner, and a team's key is refused what is a person's own.
    for (const caller of ["admin", "member", "viewer", "team_key"])
      expect(
        cells.some((c) => c.includes(`| ${caller} | 403`)),
        caller,
      ).toBe(true);
  });

  it("every operation × a team's named key of each one scope answers as the scope table says", async () => {
    const { createTeamKey } = await import("@/lib/teams/keys");
    const keys = {} as Record<KeyScope, Record<string, string>>;
    for (const scope of KEY_SCOPES) {
      const made = await createTeamKey(team.id, team.people.owner, { name: `only ${scope}`, scopes: [scope] });
      keys[scope] = { authorization: `Bearer ${made.key}` };
    }
    const operations = allEndpoints.filter((e) => e.auth !== "none" && isAllowed(e.auth, "api_key"));
    const failures: string[] = [];
    const admitted = new Set<string>();
    const things = fixturesUntilChanged(team.id);
    for (const endpoint of operations) {
      const handler = await handlerOf(endpoint);
      const needed = requiredScope(endpoint.method, endpoint.path, endpoint.auth);
      for (const scope of KEY_SCOPES) {
        const params = /\{\w+\}/.test(endpoint.path) ? await paramsFor(endpoint, things.of(team.people.owner)) : {};
        const url = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]);
        const res = await callRoute(handler, url, {
          method: endpoint.method,
          headers: keys[scope],
          params,
          body: bodyFor(endpoint),
        });
        things.after(endpoint.method, res.status);
        const detail = String((res.json as { detail?: unknown } | null)?.detail ?? "");
        const label = `${endpoint.method} ${endpoint.path} with '${scope}' (needs ${needed}): ${res.status} ${res.text.slice(0, 160)}`;
        if (needed === scope) {
          admitted.add(scope);
          if ([401, 500].includes(res.status) || (res.status === 403 && /scope|team key cannot/.test(detail)))
            failures.push(`expected admitted: ${label}`);
        } else if (res.status !== 403) failures.push(`expected 403: ${label}`);
      }
    }
    console.log(`scope matrix: ${operations.length} operations × ${KEY_SCOPES.length} keys`);
    expect(failures).toEqual([]);
    // Each scope opens something.
    expect([...admitted].sort()).toEqual([...KEY_SCOPES].sort());
  });

  it("another team's ids are a 404 for every operation that names one, whatever the caller's role", async () => {
    const named = allEndpoints.filter(
      (e) => e.auth !== "none" && /\{\w+\}/.test(e.path) && !e.path.startsWith("/v1/me/connections"),
    );
    const failures: string[] = [];
    for (const endpoint of named) {
      const handler = await handlerOf(endpoint);
      const theirs = await paramsFor(endpoint, fixtures(otherTeam.id, otherTeam.people.owner));
      const url = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => theirs[name]);
      // A team's key is refused team management before any id is read (a person's own): the owner alone there.
      const personal = requiredRole(endpoint.method, endpoint.path, endpoint.auth) === "person";
      const callers = [await session(team.people.owner, team.id), ...(personal ? [] : [await accountKey(team.id)])];
      for (const headers of callers) {
        const res = await callRoute(handler, url, {
          method: endpoint.method,
          headers,
          params: theirs,
          body: bodyFor(endpoint),
        });
        if (res.status !== 404)
          failures.push(
            `${endpoint.method} ${endpoint.path}: ${res.status} ${res.text.slice(0, 200)}${await keyState(headers)}`,
          );
      }
    }
    expect(named.length).toBeGreaterThan(15);
    console.log(`another team's ids: ${named.length} operations × 2 callers (the team's owner, the team's key)`);
    expect(failures).toEqual([]);
    // Nothing of theirs was touched: still every follow, webhook and publication made for an operation on one.
    const madeFor = (kind: string) => named.filter((endpoint) => fixtureKind(endpoint) === kind).length;
    expect(madeFor("/v1/follows")).toBeGreaterThan(0);
    expect(await ctx.db.follow.count({ where: { userId: otherTeam.id } })).toBe(madeFor("/v1/follows"));
    expect(await ctx.db.webhookEndpoint.count({ where: { userId: otherTeam.id } })).toBe(madeFor("/v1/me/webhooks"));
    expect(await ctx.db.publication.count({ where: { userId: otherTeam.id } })).toBe(madeFor("/v1/publish"));
  });

  it("another person's connected app is a 404 to a member of the same team", async () => {
    const { DELETE } = await import("@/app/v1/me/connections/[id]/route");
    const theirs = (await fixtures(otherTeam.id, team.people.admin)("/v1/me/connections")).id;
    const res = await callRoute(DELETE, `/v1/me/connections/${theirs}`, {
      method: "DELETE",
      headers: await session(team.people.owner, team.id),
      params: { id: theirs },
    });
    expect(res.status).toBe(404);
  });

  it("every MCP tool × every caller of a team answers as the role table says (reading and searching: viewer; the rest: member)", async () => {
    const { createMcpHandler } = await import("@/lib/mcp/handler");
    const { TOOL_NAMES } = await import("@/lib/mcp/tools");
    const { createOutbound } = await import("@/lib/http/outbound");
    const outbound = createOutbound({ allowPrivateFor: () => false });
    const handler = createMcpHandler({
      deps: () => ({ outbound, allowPrivateFor: () => false, providerFor: () => null, cacheHours: 24 }),
      podcastDeps: () => ({ outbound, lookupUrl: "http://127.0.0.1:9/lookup", maxBytes: 1024 }),
      waitMs: 0,
      pollMs: 10,
    });
    const made = fixtures(team.id, team.people.owner);
    const ids = Object.fromEntries(
      await Promise.all(
        ["/v1/jobs", "/v1/publish", "/v1/alerts", "/v1/transcripts"].map(
          async (kind) => [kind, await made(kind)] as const,
        ),
      ),
    );
    const url = "http://127.0.0.1:9/nothing-here.mp3";
    const TOOLS: Record<string, { role: Role; args: Record<string, unknown> }> = {
      get_transcript: { role: "member", args: { url } },
      get_job: { role: "viewer", args: { job_id: ids["/v1/jobs"].job_id } },
      list_languages: { role: "viewer", args: { url } },
      search_transcriptions: { role: "viewer", args: {} },
      search_transcripts: { role: "viewer", args: { q: "grit" } },
      publish_transcript: { role: "member", args: { url } },
      unpublish_transcript: { role: "member", args: { slug: ids["/v1/publish"].slug } },
      resolve_podcast: { role: "member", args: { url } },
      get_usage: { role: "viewer", args: {} },
      create_alert: { role: "member", args: { query: "grit" } },
      list_alerts: { role: "viewer", args: {} },
      get_alert_matches: { role: "viewer", args: { id: ids["/v1/alerts"].id } },
      pause_alert: { role: "member", args: { id: ids["/v1/alerts"].id, paused: true } },
      delete_alert: { role: "member", args: { id: ids["/v1/alerts"].id } },
      export_note: { role: "viewer", args: { transcript_id: ids["/v1/transcripts"].id } },
      edit_transcript: {
        role: "member",
        args: { transcript_id: ids["/v1/transcripts"].id, replacements: [{ find: "grit", replace: "Grit" }] },
      },
    };
    // A tool added without a line here fails: the matrix cannot forget it.
    expect([...TOOL_NAMES].sort()).toEqual(Object.keys(TOOLS).sort());

    const { issueTokens } = await import("@/lib/oauth/issue-tokens");
    const { mcpResource } = await import("@/lib/oauth/config");
    // The outsider's grant is one issued while they were in the team (none is issued to a non-member), whose
    // membership then went without revoking it.
    const grant = async (personId: string, { removed = false } = {}) => {
      const membership = { teamId_userId: { teamId: team.id, userId: personId } };
      if (removed) await ctx.db.membership.create({ data: { teamId: team.id, userId: personId, role: "member" } });
      const tokens = await ctx.db.$transaction((tx) =>
        issueTokens(tx, {
          userId: personId,
          clientId: null,
          scope: "api",
          resource: mcpResource(),
          deviceLabel: "matrix",
          workspaceId: team.id,
        }),
      );
      if (removed) await ctx.db.membership.delete({ where: membership });
      return tokens;
    };
    const { NextRequest } = await import("next/server");
    const call = async (headers: Record<string, string>, name: string, args: Record<string, unknown>) => {
      const response = await handler(
        new NextRequest("http://localhost:3000/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
        }),
      );
      const body = (await response.json()) as { result?: { isError?: boolean; content: { text?: string }[] } };
      return { status: response.status, text: body.result?.content.map((c) => c.text ?? "").join("\n") ?? "", body };
    };

    const failures: string[] = [];
    let cells = 0;
    for (const caller of CALLERS) {
      const headers =
        caller === "team_key"
          ? await accountKey(team.id)
          : {
              authorization: `Bearer ${(caller === "non_member" ? await grant(outsider, { removed: true }) : await grant(team.people[caller])).access_token}`,
            };
      for (const [name, { role, args }] of Object.entries(TOOLS)) {
        cells += 1;
        const res = await call(headers, name, args);
        const label = `${name} as ${caller}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        if (caller === "non_member") {
          // A grant for a team its person is not in acts nowhere: the token is refused.
          if (res.status !== 401) failures.push(`expected 401: ${label}`);
          continue;
        }
        const who = standing(caller);
        if (res.status !== 200) failures.push(`expected a tool result: ${label}`);
        else if (roleMeets(role, who.role, who.hasPerson)) {
          if (ROLE_REFUSAL.test(res.text)) failures.push(`expected allowed: ${label}`);
        } else if (!res.body.result?.isError || !res.text.includes(`needs the ${role} role`))
          failures.push(`expected refused (${role}): ${label}`);
      }
    }
    console.log(`MCP role matrix: ${Object.keys(TOOLS).length} tools × ${CALLERS.length} callers = ${cells} cells`);
    expect(failures).toEqual([]);
  });

  it("removing a member or lowering a role holds from the next request, for a session and a grant alike", async () => {
    const person = (await createUser(ctx.db)).id;
    await ctx.db.membership.create({ data: { teamId: team.id, userId: person, role: "admin" } });
    const { issueTokens } = await import("@/lib/oauth/issue-tokens");
    const { apiResource } = await import("@/lib/oauth/config");
    const tokens = await ctx.db.$transaction((tx) =>
      issueTokens(tx, {
        userId: person,
        clientId: null,
        scope: "api",
        resource: apiResource(),
        deviceLabel: "matrix",
        workspaceId: team.id,
      }),
    );
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const { GET: me } = await import("@/app/v1/me/route");
    const { GET: listHooks } = await import("@/app/v1/me/webhooks/route");
    const asAdmin = await callRoute(me, "/v1/me", { headers: bearer });
    expect(asAdmin.json).toMatchObject({ id: person, workspace: { id: team.id, kind: "team", role: "admin" } });
    expect((await callRoute(listHooks, "/v1/me/webhooks", { headers: await session(person, team.id) })).status).toBe(
      200,
    );

    await ctx.db.membership.update({
      where: { teamId_userId: { teamId: team.id, userId: person } },
      data: { role: "viewer" },
    });
    const lowered = await callRoute(listHooks, "/v1/me/webhooks", { headers: await session(person, team.id) });
    expect(lowered.status).toBe(403);
    expect(lowered.json).toEqual({ detail: expect.stringContaining("needs the admin role"), code: "forbidden" });
    expect((await callRoute(me, "/v1/me", { headers: bearer })).json).toMatchObject({ workspace: { role: "viewer" } });

    await ctx.db.membership.delete({ where: { teamId_userId: { teamId: team.id, userId: person } } });
    // The grant lost its team: refused, never moved to the person's own account.
    const removed = await callRoute(me, "/v1/me", { headers: bearer });
    expect(removed.status).toBe(401);
    expect(removed.json).toMatchObject({ code: "invalid_token" });
    // The session falls back to the person's own account.
    const own = await callRoute(me, "/v1/me", { headers: await session(person, team.id) });
    expect(own.json).toMatchObject({ id: person, workspace: { id: person, kind: "person", role: "owner" } });
  });
});
