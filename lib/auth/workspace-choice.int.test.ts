import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createCaller, createUser, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";

// PUT /v1/me/workspace: the dashboard's choice, checked against Membership, kept in a cookie; GET /v1/me says
// where a credential acts. A personal account's answers keep every field they had.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

async function sessionCookie(personId: string): Promise<string> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  return `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
}

describe("choosing the dashboard's workspace", () => {
  it("sets the cookie for a team the person is in, and every later request acts there with their role", async () => {
    const person = await createUser(ctx.db);
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Newsroom", slug: "newsroom-choice" } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: person.id, role: "viewer" } });
    const { PUT } = await import("@/app/v1/me/workspace/route");
    const { GET: me } = await import("@/app/v1/me/route");
    const cookie = await sessionCookie(person.id);
    const headers = { cookie, origin: "http://localhost:3000" };

    const chosen = await callRoute(PUT, "/v1/me/workspace", {
      method: "PUT",
      headers,
      body: { workspace_id: team.id },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.json).toEqual({
      id: team.id,
      kind: "team",
      name: "Newsroom",
      slug: "newsroom-choice",
      role: "viewer",
    });
    const set = chosen.headers.get("set-cookie")!;
    expect(set).toMatch(/^verbatim-workspace=/);
    expect(set.toLowerCase()).toContain("httponly");
    const inTeam = await callRoute(me, "/v1/me", { headers: { cookie: `${cookie}; ${set.split(";")[0]}` } });
    expect(inTeam.json).toMatchObject({
      id: person.id,
      email: person.email,
      via: "session",
      workspace: { id: team.id, role: "viewer" },
    });

    const back = await callRoute(PUT, "/v1/me/workspace", { method: "PUT", headers, body: { workspace_id: null } });
    expect(back.json).toMatchObject({ id: person.id, kind: "person", role: "owner" });
    expect(back.headers.get("set-cookie")).toMatch(/^verbatim-workspace=;.*Max-Age=0/i);
  });

  it("answers 404 for a team the person is not in, 403 for an API key, 422 for junk; GET /v1/me keeps its fields", async () => {
    const person = await createCaller(ctx.db);
    const other = await ctx.db.user.create({ data: { kind: "team", name: "Elsewhere" } });
    const { PUT } = await import("@/app/v1/me/workspace/route");
    const { GET: me } = await import("@/app/v1/me/route");
    const headers = { cookie: await sessionCookie(person.userId), origin: "http://localhost:3000" };
    for (const [body, status] of [
      [{ workspace_id: other.id }, 404],
      [{ workspace_id: "no-such-team" }, 404],
      [{ workspace_id: 42 }, 422],
      [{ workspace_id: "x".repeat(65) }, 422],
      [{ workspace_id: null, extra: 1 }, 422],
      ["not json", 422],
    ] as const) {
      const res = await callRoute(PUT, "/v1/me/workspace", { method: "PUT", headers, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    const byKey = await callRoute(PUT, "/v1/me/workspace", {
      method: "PUT",
      headers: person.headers,
      body: { workspace_id: null },
    });
    expect(byKey.status).toBe(403);
    // A cookie naming a team the person is not in: their own account, as before.
    const forged = await callRoute(me, "/v1/me", {
      headers: { cookie: `${headers.cookie}; verbatim-workspace=${other.id}` },
    });
    const own = forged.json as Record<string, unknown>;
    expect(Object.keys(own).sort()).toEqual(["email", "id", "name", "tier", "via", "workspace"]);
    expect(own).toMatchObject({
      id: person.userId,
      tier: "free",
      via: "session",
      workspace: { id: person.userId, kind: "person" },
    });
  });
});

// Another app on localhost or a sibling subdomain can set this cookie for us: whatever it holds, as the raw text of
// the Cookie header, that cannot name a workspace is ignored (the person's own account), never a 500.
const HOSTILE_COOKIES = [
  "%00",
  "a%00b",
  "%2500",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "%FF%FE",
  encodeURIComponent("😀"),
  encodeURIComponent("\u202eevil"),
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent("\\x00"),
  "x".repeat(4000),
  "..%2F..%2Fetc",
  "__proto__",
  "constructor",
  '"quoted"',
  "",
];

describe("a hostile workspace cookie", () => {
  it("is ignored by every cookie-authenticated /v1 call and by PUT /v1/me/workspace: never a 5xx", async () => {
    const person = await createUser(ctx.db);
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Hostile", slug: "hostile-cookie" } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: person.id, role: "member" } });
    const session = await sessionCookie(person.id);
    const routes = {
      me: (await import("@/app/v1/me/route")).GET,
      history: (await import("@/app/v1/me/transcriptions/route")).GET,
      key: (await import("@/app/v1/me/api-key/route")).GET,
      webhooks: (await import("@/app/v1/me/webhooks/route")).GET,
      follows: (await import("@/app/v1/follows/route")).GET,
      choose: (await import("@/app/v1/me/workspace/route")).PUT,
    };
    const failures: string[] = [];
    for (const value of HOSTILE_COOKIES) {
      const headers = { cookie: `${session}; verbatim-workspace=${value}`, origin: "http://localhost:3000" };
      for (const [name, route] of Object.entries(routes)) {
        const res =
          name === "choose"
            ? await callRoute(route, "/v1/me/workspace", { method: "PUT", headers, body: { workspace_id: team.id } })
            : await callRoute(route, "/v1/test", { headers });
        if (res.status >= 500) failures.push(`${name} with ${value.slice(0, 20)} → ${res.status}`);
        else if (name === "me")
          expect(res.json, value.slice(0, 20)).toMatchObject({ workspace: { id: person.id, kind: "person" } });
        else if (name === "choose") expect(res.json, value.slice(0, 20)).toMatchObject({ id: team.id, kind: "team" });
      }
    }
    expect(failures).toEqual([]);
  });

  it("chooses no workspace from an id that cannot be one (404), and the dashboard's read falls back to its own", async () => {
    const person = await createUser(ctx.db);
    const { PUT } = await import("@/app/v1/me/workspace/route");
    const { workspaceFor } = await import("@/lib/membership/workspace");
    const headers = { cookie: await sessionCookie(person.id), origin: "http://localhost:3000" };
    for (const [id, status] of [
      ["\u0000", 422], // the body's reader refuses NUL in any string
      ["a\u0000b", 422],
      ["😀", 404],
      ["\u202eevil", 404],
      ["' OR 1=1 --", 404],
      ["x".repeat(64), 404],
    ] as const) {
      const res = await callRoute(PUT, "/v1/me/workspace", { method: "PUT", headers, body: { workspace_id: id } });
      expect(res.status, JSON.stringify(id)).toBe(status);
      expect(await workspaceFor(person.id, id), JSON.stringify(id)).toMatchObject({
        accountId: person.id,
        kind: "person",
      });
      expect(await workspaceFor(person.id, id, { strict: true }), JSON.stringify(id)).toBeNull();
    }
  });
});
