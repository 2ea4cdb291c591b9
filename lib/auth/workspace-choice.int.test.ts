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
