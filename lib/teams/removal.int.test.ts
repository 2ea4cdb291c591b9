import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { callRoute } from "@/test/request";

// What a member could reach stops when they are removed, leave or are lowered (decision 0036), through the route
// handlers against real PostgreSQL: the team's API key an admin made or was shown, the invitations they sent and
// may no longer give. Their OAuth grants for the team: lib/oauth/grant-workspace.int.test.ts.

type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let logs: ReturnType<typeof captureLogs>;
let r: Record<string, Route>;

beforeAll(async () => {
  Object.assign(process.env, { APP_URL: "http://localhost:3000", RATE_LIMIT_MULTIPLIER: "0" });
  delete process.env.SMTP_URL;
  ctx = await useTestDatabase();
  logs = captureLogs("info");
  r = {
    ensure: (await import("@/app/v1/me/api-key/ensure/route")).POST,
    regenerate: (await import("@/app/v1/me/api-key/regenerate/route")).POST,
    keyState: (await import("@/app/v1/me/api-key/route")).GET,
    history: (await import("@/app/v1/me/transcriptions/route")).GET,
    transcribe: (await import("@/app/v1/transcript/route")).POST,
    webhooks: (await import("@/app/v1/me/webhooks/route")).POST,
    patchMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).PATCH,
    removeMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).DELETE,
    transfer: (await import("@/app/v1/teams/[team_id]/transfer/route")).POST,
    invite: (await import("@/app/v1/teams/[team_id]/invitations/route")).POST,
    invitations: (await import("@/app/v1/teams/[team_id]/invitations/route")).GET,
    accept: (await import("@/app/v1/invitations/accept/route")).POST,
  } as Record<string, Route>;
});

afterAll(async () => {
  logs?.restore();
  await ctx?.teardown();
});

/** A session's headers, acting in `workspace` when given (the dashboard's cookie). */
async function session(personId: string, workspace?: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return {
    cookie: workspace ? `${cookie}; verbatim-workspace=${workspace}` : cookie,
    origin: "http://localhost:3000",
  };
}

interface Person {
  id: string;
  email: string;
  /** Their own API key: a person's, so it may manage teams. */
  headers: Record<string, string>;
}

async function person(): Promise<Person> {
  const caller = await createCaller(ctx.db);
  const user = await ctx.db.user.update({ where: { id: caller.userId }, data: { emailVerified: new Date() } });
  return { id: user.id, email: user.email!, headers: caller.headers };
}

/** A team with an owner and the given people in their roles (rows, not the API: the API's joins are tested apart). */
async function team(owner: Person, members: [Person, "admin" | "member" | "viewer" | "owner"][] = []) {
  const row = await ctx.db.user.create({
    data: { kind: "team", name: "Removals", slug: `removals-${Math.random().toString(36).slice(2, 10)}` },
  });
  await ctx.db.membership.create({ data: { teamId: row.id, userId: owner.id, role: "owner" } });
  for (const [who, role] of members) await ctx.db.membership.create({ data: { teamId: row.id, userId: who.id, role } });
  return row.id;
}

/** The team key `admin` makes in the dashboard (the plaintext is shown to them once). */
async function keyMadeBy(teamId: string, admin: Person): Promise<{ authorization: string; prefix: string }> {
  const made = await callRoute(r.ensure, "/v1/me/api-key/ensure", {
    method: "POST",
    headers: await session(admin.id, teamId),
  });
  expect(made.status).toBe(200);
  const body = made.json as { key: string; key_prefix: string };
  return { authorization: `Bearer ${body.key}`, prefix: body.key_prefix };
}

/** What the team's key can do now: read the library, transcribe, register a webhook. */
async function keyReach(key: { authorization: string }) {
  const headers = { authorization: key.authorization };
  return [
    (await callRoute(r.history, "/v1/me/transcriptions", { headers })).status,
    (
      await callRoute(r.transcribe, "/v1/transcript", {
        method: "POST",
        headers,
        body: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      })
    ).status,
    (
      await callRoute(r.webhooks, "/v1/me/webhooks", {
        method: "POST",
        headers,
        body: { url: "https://example.com/h" },
      })
    ).status,
  ];
}

const remove = (teamId: string, by: Person, who: Person) =>
  callRoute(r.removeMember, "/v1/test", {
    method: "DELETE",
    headers: by.headers,
    params: { team_id: teamId, user_id: who.id },
  });

const setRole = (teamId: string, by: Person, who: Person, role: string) =>
  callRoute(r.patchMember, "/v1/test", {
    method: "PATCH",
    headers: by.headers,
    params: { team_id: teamId, user_id: who.id },
    body: { role },
  });

async function trail(teamId: string) {
  return ctx.db.auditEvent.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

describe("the team's API key, when a member who could read it goes", () => {
  it("stops at the admin's removal: library read, transcribe and webhook registration answer 401 on the next request", async () => {
    const owner = await person();
    const admin = await person();
    const teamId = await team(owner, [[admin, "admin"]]);
    const key = await keyMadeBy(teamId, admin);
    expect(
      (await callRoute(r.history, "/v1/me/transcriptions", { headers: { authorization: key.authorization } })).status,
    ).toBe(200);

    expect((await remove(teamId, owner, admin)).status).toBe(204);
    expect(await keyReach(key)).toEqual([401, 401, 401]);

    // No key until an owner makes one; the trail says why; the owners are told.
    const state = await callRoute(r.keyState, "/v1/me/api-key", { headers: await session(owner.id, teamId) });
    expect(state.json).toMatchObject({ has_key: false, key_prefix: null });
    const revoked = (await trail(teamId)).find((e) => e.action === "key.revoked");
    expect(revoked).toMatchObject({
      actorId: owner.id,
      target: key.prefix,
      data: { reason: "member.removed", user_id: admin.id, member: admin.email },
    });
    const told = logs.lines.filter((l) => l.msg === "team key revoked" && l.team_id === teamId);
    expect(told.map((l) => l.email)).toEqual([owner.email]);
    expect(told[0]).toMatchObject({ reason: "member.removed", member: admin.email });

    const fresh = await keyMadeBy(teamId, owner);
    expect(
      (await callRoute(r.history, "/v1/me/transcriptions", { headers: { authorization: fresh.authorization } })).status,
    ).toBe(200);
  });

  it("stops when the admin leaves or is lowered below admin; not when a member goes or an owner becomes admin", async () => {
    const owner = await person();
    const [leaving, lowered, member, coOwner] = [await person(), await person(), await person(), await person()];
    const teamId = await team(owner, [
      [leaving, "admin"],
      [lowered, "admin"],
      [member, "member"],
      [coOwner, "owner"],
    ]);
    const reach = (key: { authorization: string }) =>
      callRoute(r.history, "/v1/me/transcriptions", { headers: { authorization: key.authorization } }).then(
        (a) => a.status,
      );

    // A member (who never could read the key) removed, and an owner lowered to admin (who still may): it stays.
    const key = await keyMadeBy(teamId, leaving);
    expect((await remove(teamId, owner, member)).status).toBe(204);
    expect((await setRole(teamId, owner, coOwner, "admin")).status).toBe(200);
    expect(await reach(key)).toBe(200);

    // The admin leaves: it stops.
    expect((await remove(teamId, leaving, leaving)).status).toBe(204);
    expect(await reach(key)).toBe(401);

    // An admin lowered to member: the key they were shown stops.
    const second = await keyMadeBy(teamId, lowered);
    expect((await setRole(teamId, owner, lowered, "member")).status).toBe(200);
    expect(await reach(second)).toBe(401);

    const reasons = (await trail(teamId))
      .filter((e) => e.action === "key.revoked")
      .map((e) => (e.data as { reason: string }).reason);
    expect(reasons).toEqual(["member.left", "member.role_changed"]);
  });

  it("is not made for an admin whose removal committed after their request was let in", async () => {
    const owner = await person();
    const admin = await person();
    const teamId = await team(owner, [[admin, "admin"]]);
    const { ensureApiKey, regenerateApiKey } = await import("@/lib/auth/api-keys");
    expect((await remove(teamId, owner, admin)).status).toBe(204);
    // As a request authenticated just before the removal would reach it: the role is read again under the lock.
    await expect(ensureApiKey(teamId, { personId: admin.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(regenerateApiKey(teamId, { personId: admin.id })).rejects.toMatchObject({ code: "not_found" });
    expect(await ctx.db.apiKey.findUnique({ where: { userId: teamId } })).toBeNull();

    // The team's key replacing itself after it was revoked: refused, no key made.
    const key = await keyMadeBy(teamId, owner);
    const row = await ctx.db.apiKey.findUniqueOrThrow({ where: { userId: teamId } });
    await ctx.db.apiKey.delete({ where: { id: row.id } });
    await expect(regenerateApiKey(teamId, { personId: null, apiKey: { id: row.id } })).rejects.toMatchObject({
      code: "invalid_token",
    });
    expect(await ctx.db.apiKey.findUnique({ where: { userId: teamId } })).toBeNull();
    expect(key.prefix).toMatch(/^vbt_/);
  });
});

/** The token of the newest link logged for `email`. */
function tokenMailedTo(email: string): string {
  const line = logs.lines.findLast((l) => l.msg === "team invitation link" && l.email === email.toLowerCase());
  expect(line, `an invitation link for ${email}`).toBeDefined();
  return new URL(line!.url as string).pathname.split("/").at(-1)!;
}

async function invite(teamId: string, by: Person, email: string, role: string) {
  const sent = await callRoute(r.invite, "/v1/test", {
    method: "POST",
    headers: by.headers,
    params: { team_id: teamId },
    body: { email, role },
  });
  expect(sent.status).toBe(201);
  return tokenMailedTo(email);
}

const accept = (who: Person, token: string) =>
  callRoute(r.accept, "/v1/invitations/accept", { method: "POST", headers: who.headers, body: { token } });

describe("a pending invitation, when its sender goes or is lowered", () => {
  it("lets no one in after an admin who sent it is lowered to member or removed; the trail says why", async () => {
    const owner = await person();
    const [lowered, removed, asAdmin, asMember] = [await person(), await person(), await person(), await person()];
    const teamId = await team(owner, [
      [lowered, "admin"],
      [removed, "admin"],
    ]);
    const adminLink = await invite(teamId, lowered, asAdmin.email, "admin");
    const memberLink = await invite(teamId, removed, asMember.email, "member");

    expect((await setRole(teamId, owner, lowered, "member")).status).toBe(200);
    expect((await remove(teamId, owner, removed)).status).toBe(204);

    for (const [who, link] of [
      [asAdmin, adminLink],
      [asMember, memberLink],
    ] as const) {
      const refused = await accept(who, link);
      expect(refused.status, who.email).toBe(404);
      expect(refused.json).toMatchObject({ code: "invitation_invalid" });
    }
    expect(await ctx.db.membership.count({ where: { teamId, userId: { in: [asAdmin.id, asMember.id] } } })).toBe(0);
    const pending = await callRoute(r.invitations, "/v1/test", { headers: owner.headers, params: { team_id: teamId } });
    expect((pending.json as { invitations: unknown[] }).invitations).toEqual([]);
    const voided = (await trail(teamId)).filter((e) => e.action === "invitation.revoked");
    expect(voided.map((e) => [e.target, (e.data as { reason: string }).reason])).toEqual([
      [asAdmin.email, "member.role_changed"],
      [asMember.email, "member.removed"],
    ]);
  });

  it("is judged against its sender's role when accepted, also for a link that was pending before this rule", async () => {
    const owner = await person();
    const admin = await person();
    const invited = await person();
    const teamId = await team(owner, [[admin, "admin"]]);
    const link = await invite(teamId, admin, invited.email, "admin");
    // The sender's role lowered by a path that voided nothing (as rows from before this rule are).
    await ctx.db.membership.update({
      where: { teamId_userId: { teamId, userId: admin.id } },
      data: { role: "member" },
    });
    const refused = await accept(invited, link);
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ code: "invitation_invalid" });
    expect((refused.json as { detail: string }).detail).toContain("may no longer give this role");
    const { previewInvitation } = await import("@/lib/teams/invitations");
    expect((await previewInvitation(link))?.problem).toBe("is from someone who may no longer give this role");

    // Raised again, the same link works: it never gave more than its sender may give.
    await ctx.db.membership.update({ where: { teamId_userId: { teamId, userId: admin.id } }, data: { role: "admin" } });
    expect((await accept(invited, link)).status).toBe(200);
  });

  it("an owner who hands the team over keeps the invitations an admin may give; an owner's is void", async () => {
    const owner = await person();
    const heir = await person();
    const [asOwner, asMember] = [await person(), await person()];
    const teamId = await team(owner, [[heir, "admin"]]);
    const ownerLink = await invite(teamId, owner, asOwner.email, "owner");
    const memberLink = await invite(teamId, owner, asMember.email, "member");
    const handed = await callRoute(r.transfer, "/v1/test", {
      method: "POST",
      headers: owner.headers,
      params: { team_id: teamId },
      body: { user_id: heir.id },
    });
    expect(handed.status).toBe(200);
    expect((await accept(asOwner, ownerLink)).status).toBe(404);
    const joined = await accept(asMember, memberLink);
    expect(joined.status).toBe(200);
    expect(joined.json).toMatchObject({ team: { role: "member" } });
  });
});
