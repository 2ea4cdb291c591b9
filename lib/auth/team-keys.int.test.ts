import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { callRoute } from "@/test/request";

// A team's named keys through the route handlers against real PostgreSQL: made, listed (never a secret) and revoked
// by admins and owners; each key held to its scopes where the credential is resolved, and to its expiry; the keys an
// admin made revoked when they lose the role, the others kept.

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
    keys: (await import("@/app/v1/teams/[team_id]/keys/route")).GET,
    createKey: (await import("@/app/v1/teams/[team_id]/keys/route")).POST,
    revokeKey: (await import("@/app/v1/teams/[team_id]/keys/[key_id]/route")).DELETE,
    history: (await import("@/app/v1/me/transcriptions/route")).GET,
    transcribe: (await import("@/app/v1/transcript/route")).POST,
    publish: (await import("@/app/v1/publish/route")).POST,
    webhooks: (await import("@/app/v1/me/webhooks/route")).POST,
    regenerate: (await import("@/app/v1/me/api-key/regenerate/route")).POST,
    me: (await import("@/app/v1/me/route")).GET,
    removeMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).DELETE,
    patchMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).PATCH,
  } as Record<string, Route>;
});

afterAll(async () => {
  logs?.restore();
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

async function team(owner: Person, members: [Person, "admin" | "member" | "viewer" | "owner"][] = []) {
  const row = await ctx.db.user.create({
    data: { kind: "team", name: "Keys", slug: `keys-${Math.random().toString(36).slice(2, 10)}` },
  });
  await ctx.db.membership.create({ data: { teamId: row.id, userId: owner.id, role: "owner" } });
  for (const [who, role] of members) await ctx.db.membership.create({ data: { teamId: row.id, userId: who.id, role } });
  return row.id;
}

interface Made {
  id: string;
  key: string;
  key_prefix: string;
  authorization: string;
}

async function makeKey(teamId: string, by: Person, body: Record<string, unknown>): Promise<Made> {
  const made = await callRoute(r.createKey, "/v1/test", {
    method: "POST",
    headers: by.headers,
    params: { team_id: teamId },
    body,
  });
  expect(made.status, made.text).toBe(201);
  const json = made.json as Made;
  return { ...json, authorization: `Bearer ${json.key}` };
}

const bearer = (key: Made) => ({ authorization: key.authorization });

/** What a key may do, each step answered before its input is looked at past the scope: 403 refused, else admitted. */
async function reach(key: Made) {
  const headers = bearer(key);
  const read = (await callRoute(r.history, "/v1/me/transcriptions", { headers })).status;
  // Bodies the operation refuses (422) once the key has been let in: no platform is asked.
  const transcribe = (await callRoute(r.transcribe, "/v1/transcript", { method: "POST", headers, body: {} })).status;
  const publish = (await callRoute(r.publish, "/v1/publish", { method: "POST", headers, body: {} })).status;
  const manage = (await callRoute(r.webhooks, "/v1/me/webhooks", { method: "POST", headers, body: {} })).status;
  return { read, transcribe, publish, manage };
}

describe("a team's named keys", () => {
  it("are made by admins and owners, shown once, listed without secrets, with who made them and their last use", async () => {
    const owner = await person();
    const admin = await person();
    const member = await person();
    const teamId = await team(owner, [
      [admin, "admin"],
      [member, "member"],
    ]);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const ci = await makeKey(teamId, admin, { name: "CI", scopes: ["read", "transcribe"], expires_at: expiresAt });
    expect(ci.key).toMatch(/^vbt_tk_[1-9A-HJ-NP-Za-km-z]{40,}$/);
    expect(ci).toMatchObject({ name: "CI", scopes: ["read", "transcribe"], expired: false, last_used_at: null });
    expect(new Date((ci as unknown as { expires_at: string }).expires_at).toISOString()).toBe(expiresAt);
    const reader = await makeKey(teamId, owner, { name: "Dashboard screen", scopes: ["read"] });

    expect((await callRoute(r.history, "/v1/me/transcriptions", { headers: bearer(ci) })).status).toBe(200);

    const listed = await callRoute(r.keys, "/v1/test", { headers: owner.headers, params: { team_id: teamId } });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(ci.key);
    expect(listed.text).not.toContain(reader.key);
    const keys = (listed.json as { keys: Record<string, unknown>[] }).keys;
    expect(keys.map((k) => k.name)).toEqual(["Dashboard screen", "CI"]);
    for (const key of keys) expect(key).not.toHaveProperty("key");
    expect(keys[1]).toMatchObject({
      id: ci.id,
      key_prefix: ci.key_prefix,
      created_by: { id: admin.id, label: admin.email },
      expires_at: expiresAt,
    });
    expect(keys[1].last_used_at).not.toBeNull();
    expect(keys[0]).toMatchObject({ created_by: { id: owner.id }, expires_at: null, last_used_at: null });

    // A member may neither make nor list them; another team's id tells nothing.
    const refused = await callRoute(r.createKey, "/v1/test", {
      method: "POST",
      headers: member.headers,
      params: { team_id: teamId },
      body: { name: "mine", scopes: ["read"] },
    });
    expect(refused.status).toBe(403);
    expect((await callRoute(r.keys, "/v1/test", { headers: member.headers, params: { team_id: teamId } })).status).toBe(
      403,
    );
    const stranger = await person();
    expect(
      (await callRoute(r.keys, "/v1/test", { headers: stranger.headers, params: { team_id: teamId } })).status,
    ).toBe(404);

    // The trail names the key made, by whom.
    const made = await ctx.db.auditEvent.findMany({ where: { teamId, action: "key.created" }, orderBy: { id: "asc" } });
    expect(made.map((e) => [e.actorId, e.target])).toEqual(
      expect.arrayContaining([
        [admin.id, ci.key_prefix],
        [owner.id, reader.key_prefix],
      ]),
    );
  });

  it("refuses a bad name, an unknown or repeated scope and an expiry in the past (422)", async () => {
    const owner = await person();
    const teamId = await team(owner);
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: ["read", "read"] },
      { name: "x", scopes: ["read"], expires_at: "2001-01-01T00:00:00Z" },
      { name: "x", scopes: ["read"], expires_at: "tomorrow" },
    ]) {
      const answer = await callRoute(r.createKey, "/v1/test", {
        method: "POST",
        headers: owner.headers,
        params: { team_id: teamId },
        body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    expect(await ctx.db.teamKey.count({ where: { teamId } })).toBe(0);
  });

  it("do what their scopes say: a read key reads and cannot transcribe, publish or manage", async () => {
    const owner = await person();
    const teamId = await team(owner);
    const read = await makeKey(teamId, owner, { name: "read", scopes: ["read"] });
    const transcribe = await makeKey(teamId, owner, { name: "transcribe", scopes: ["transcribe"] });
    const publish = await makeKey(teamId, owner, { name: "publish", scopes: ["publish"] });
    const manage = await makeKey(teamId, owner, { name: "manage", scopes: ["manage"] });
    const all = await makeKey(teamId, owner, { name: "all", scopes: ["read", "transcribe", "publish", "manage"] });

    expect(await reach(read)).toEqual({ read: 200, transcribe: 403, publish: 403, manage: 403 });
    expect(await reach(transcribe)).toEqual({ read: 403, transcribe: 422, publish: 403, manage: 403 });
    expect(await reach(publish)).toEqual({ read: 403, transcribe: 403, publish: 422, manage: 403 });
    expect(await reach(manage)).toEqual({ read: 403, transcribe: 403, publish: 403, manage: 422 });
    expect(await reach(all)).toEqual({ read: 200, transcribe: 422, publish: 422, manage: 422 });

    // The refusal is the contract's shape with the code the permission table uses, naming the scope.
    const refused = await callRoute(r.transcribe, "/v1/transcript", {
      method: "POST",
      headers: bearer(read),
      body: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ code: "forbidden", detail: expect.stringContaining("'transcribe' scope") });

    // A transcribe key may not have deliveries signed with the account's secret (webhook_url: the manage row).
    const signed = await callRoute(r.transcribe, "/v1/transcript", {
      method: "POST",
      headers: bearer(transcribe),
      body: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", webhook_url: "https://example.com/hook" },
    });
    expect(signed.status).toBe(403);

    // No key manages keys or replaces the slot's key, whatever its scopes.
    expect((await callRoute(r.keys, "/v1/test", { headers: bearer(all), params: { team_id: teamId } })).status).toBe(
      403,
    );
    const replaced = await callRoute(r.regenerate, "/v1/me/api-key/regenerate", {
      method: "POST",
      headers: bearer(all),
    });
    expect(replaced.status).toBe(403);
    const me = await callRoute(r.me, "/v1/me", { headers: bearer(read) });
    expect(me.status).toBe(200);
  });

  it("answer 401 in the contract's shape once expired, and once revoked (with the trail's line)", async () => {
    const owner = await person();
    const teamId = await team(owner);
    const key = await makeKey(teamId, owner, {
      name: "short-lived",
      scopes: ["read"],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await callRoute(r.history, "/v1/me/transcriptions", { headers: bearer(key) })).status).toBe(200);
    await ctx.db.teamKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await callRoute(r.history, "/v1/me/transcriptions", { headers: bearer(key) });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ code: "invalid_token", detail: expect.stringContaining("expired") });
    const listed = await callRoute(r.keys, "/v1/test", { headers: owner.headers, params: { team_id: teamId } });
    expect((listed.json as { keys: { expired: boolean }[] }).keys[0].expired).toBe(true);

    const other = await makeKey(teamId, owner, { name: "other", scopes: ["read"] });
    const revoked = await callRoute(r.revokeKey, "/v1/test", {
      method: "DELETE",
      headers: owner.headers,
      params: { team_id: teamId, key_id: other.id },
    });
    expect(revoked.status).toBe(204);
    const after = await callRoute(r.history, "/v1/me/transcriptions", { headers: bearer(other) });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ code: "invalid_token" });
    const again = await callRoute(r.revokeKey, "/v1/test", {
      method: "DELETE",
      headers: owner.headers,
      params: { team_id: teamId, key_id: other.id },
    });
    expect(again.status).toBe(404);
    const line = await ctx.db.auditEvent.findFirst({ where: { teamId, action: "key.revoked" } });
    expect(line).toMatchObject({ actorId: owner.id, target: other.key_prefix, data: { key_id: other.id } });
  });

  it("made by an admin who is removed or lowered stop; the keys others made stay", async () => {
    const owner = await person();
    const [removed, lowered, coOwner] = [await person(), await person(), await person()];
    const teamId = await team(owner, [
      [removed, "admin"],
      [lowered, "admin"],
      [coOwner, "owner"],
    ]);
    const byRemoved = await makeKey(teamId, removed, { name: "removed's", scopes: ["read"] });
    const byLowered = await makeKey(teamId, lowered, { name: "lowered's", scopes: ["read"] });
    const byOwner = await makeKey(teamId, owner, { name: "owner's", scopes: ["read"] });
    const byCoOwner = await makeKey(teamId, coOwner, { name: "co-owner's", scopes: ["read"] });
    const status = async (key: Made) =>
      (await callRoute(r.history, "/v1/me/transcriptions", { headers: bearer(key) })).status;

    const gone = await callRoute(r.removeMember, "/v1/test", {
      method: "DELETE",
      headers: owner.headers,
      params: { team_id: teamId, user_id: removed.id },
    });
    expect(gone.status).toBe(204);
    expect([await status(byRemoved), await status(byLowered), await status(byOwner)]).toEqual([401, 200, 200]);

    // An owner who becomes admin may still manage keys: theirs stay.
    const toAdmin = await callRoute(r.patchMember, "/v1/test", {
      method: "PATCH",
      headers: owner.headers,
      params: { team_id: teamId, user_id: coOwner.id },
      body: { role: "admin" },
    });
    expect(toAdmin.status).toBe(200);
    expect(await status(byCoOwner)).toBe(200);

    const toMember = await callRoute(r.patchMember, "/v1/test", {
      method: "PATCH",
      headers: owner.headers,
      params: { team_id: teamId, user_id: lowered.id },
      body: { role: "member" },
    });
    expect(toMember.status).toBe(200);
    expect([await status(byLowered), await status(byOwner), await status(byCoOwner)]).toEqual([401, 200, 200]);

    const listed = await callRoute(r.keys, "/v1/test", { headers: owner.headers, params: { team_id: teamId } });
    expect((listed.json as { keys: { name: string }[] }).keys.map((k) => k.name).sort()).toEqual([
      "co-owner's",
      "owner's",
    ]);
    const lines = await ctx.db.auditEvent.findMany({
      where: { teamId, action: "key.revoked" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(lines.map((e) => [e.target, (e.data as { reason: string }).reason])).toEqual([
      [byRemoved.key_prefix, "member.removed"],
      [byLowered.key_prefix, "member.role_changed"],
    ]);
  });

  it("act in the team under the key's name in the trail", async () => {
    const owner = await person();
    const teamId = await team(owner);
    const manage = await makeKey(teamId, owner, { name: "Deploy bot", scopes: ["manage"] });
    const made = await callRoute(r.webhooks, "/v1/me/webhooks", {
      method: "POST",
      headers: bearer(manage),
      body: { url: "https://example.com/hook" },
    });
    expect(made.status, made.text).toBe(201);
    const line = await ctx.db.auditEvent.findFirst({ where: { teamId, action: "webhook.created" } });
    expect(line).toMatchObject({ actorId: null, actorLabel: `API key Deploy bot (${manage.key_prefix}…)` });
  });

  it("name the key on the history entries it asks for (per-key usage)", async () => {
    const owner = await person();
    const teamId = await team(owner);
    const key = await makeKey(teamId, owner, { name: "Ingest", scopes: ["transcribe"] });
    const videoId = "keyusage001";
    // Already fetched, so the request is served from the store and charged without a source.
    await ctx.db.transcript.create({
      data: {
        platform: "youtube",
        videoId,
        lang: "en",
        origin: "captions",
        sourceUrl: `https://www.youtube.com/watch?v=${videoId}`,
        durationSeconds: 90,
        segments: [{ start: 0, end: 90, text: "hello" }],
      },
    });
    const asked = await callRoute(r.transcribe, "/v1/transcript", {
      method: "POST",
      headers: bearer(key),
      body: { url: `https://www.youtube.com/watch?v=${videoId}`, lang: "en" },
    });
    expect(asked.status, asked.text).toBe(200);
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: teamId, videoId } });
    expect(entry).toMatchObject({ actorId: null, teamKeyId: key.id, totalSeconds: 90 });
  });
});
