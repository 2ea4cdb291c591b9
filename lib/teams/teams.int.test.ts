import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";

// Teams' management API against real PostgreSQL, through the route handlers: every endpoint's happy path, another
// team's ids (404), invitations that cannot be guessed, reused, accepted late, after revocation or by another
// address, the limits (under concurrency where they decide a write), the last owner, and hostile input (a 4xx).

const MAX_OWNED = 3;
const MAX_MEMBERS = 5;
const MAX_PENDING = 4;
const PER_DAY = 10;

type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Ctx = Awaited<ReturnType<typeof useTestDatabase>>;

let ctx: Ctx;
let logs: ReturnType<typeof captureLogs>;
let r: Record<string, Route>;

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-teams-"));

beforeAll(async () => {
  Object.assign(process.env, {
    TEAM_MAX_OWNED: String(MAX_OWNED),
    TEAM_MAX_MEMBERS: String(MAX_MEMBERS),
    TEAM_MAX_PENDING_INVITATIONS: String(MAX_PENDING),
    TEAM_INVITATIONS_PER_DAY: String(PER_DAY),
    RATE_LIMIT_MULTIPLIER: "0",
    DATA_DIR: dataDir,
  });
  delete process.env.SMTP_URL;
  delete process.env.S3_BUCKET;
  ctx = await useTestDatabase();
  logs = captureLogs("info");
  r = {
    teams: (await import("@/app/v1/teams/route")).POST,
    listTeams: (await import("@/app/v1/teams/route")).GET,
    team: (await import("@/app/v1/teams/[team_id]/route")).GET,
    patchTeam: (await import("@/app/v1/teams/[team_id]/route")).PATCH,
    deleteTeam: (await import("@/app/v1/teams/[team_id]/route")).DELETE,
    transfer: (await import("@/app/v1/teams/[team_id]/transfer/route")).POST,
    members: (await import("@/app/v1/teams/[team_id]/members/route")).GET,
    patchMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).PATCH,
    removeMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).DELETE,
    invite: (await import("@/app/v1/teams/[team_id]/invitations/route")).POST,
    invitations: (await import("@/app/v1/teams/[team_id]/invitations/route")).GET,
    revoke: (await import("@/app/v1/teams/[team_id]/invitations/[invitation_id]/route")).DELETE,
    accept: (await import("@/app/v1/invitations/accept/route")).POST,
    audit: (await import("@/app/v1/teams/[team_id]/audit/route")).GET,
    usage: (await import("@/app/v1/teams/[team_id]/usage/route")).GET,
  } as Record<string, Route>;
});

afterAll(async () => {
  logs?.restore();
  await ctx?.teardown();
  await rm(dataDir, { recursive: true, force: true });
});

/** A person with a verified e-mail (a magic link's sign-in) and an API key. */
async function person({ verified = true } = {}): Promise<Person> {
  const caller = await createCaller(ctx.db);
  const user = await ctx.db.user.update({
    where: { id: caller.userId },
    data: { emailVerified: verified ? new Date() : null },
  });
  return { id: user.id, email: user.email!, headers: caller.headers };
}

function call(
  route: string,
  who: Person,
  params: Record<string, string> = {},
  options: { method?: string; body?: unknown; query?: string } = {},
) {
  const path = `/v1/test${options.query ?? ""}`;
  return callRoute(r[route], path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: who.headers,
    body: options.body,
    params,
  });
}

async function newTeam(owner: Person, name = "Newsroom"): Promise<string> {
  const created = await call("teams", owner, {}, { body: { name } });
  expect(created.status).toBe(201);
  return (created.json as { id: string }).id;
}

/** The token of the newest link mailed (here: logged) to `email`. */
function tokenMailedTo(email: string): string {
  const line = logs.lines.findLast((l) => l.msg === "team invitation link" && l.email === email.toLowerCase());
  expect(line, `an invitation link for ${email}`).toBeDefined();
  return new URL(line!.url as string).pathname.split("/").at(-1)!;
}

async function invite(team: string, by: Person, email: string, role = "member") {
  return call("invite", by, { team_id: team }, { body: { email, role } });
}

/** `who` joins `team` with `role`, by an invitation accepted through the API. */
async function join(team: string, owner: Person, who: Person, role = "member") {
  expect((await invite(team, owner, who.email, role)).status).toBe(201);
  const accepted = await call("accept", who, {}, { body: { token: tokenMailedTo(who.email) } });
  expect(accepted.status).toBe(200);
}

describe("a team", () => {
  it("is created with its creator as owner, listed, read, renamed, and its slug made from its name", async () => {
    const owner = await person();
    const created = await call("teams", owner, {}, { body: { name: "Café Radio!" } });
    expect(created.status).toBe(201);
    const team = created.json as { id: string; slug: string; role: string; name: string; created_at: string };
    expect(team).toMatchObject({ name: "Café Radio!", role: "owner" });
    expect(team.slug).toMatch(/^cafe-radio(-[a-z0-9]+)?$/);
    const row = await ctx.db.user.findUniqueOrThrow({ where: { id: team.id } });
    expect(row).toMatchObject({ kind: "team", email: null, slug: team.slug });

    const again = await call("teams", owner, {}, { body: { name: "Café Radio!" } });
    expect(again.status).toBe(201);
    expect((again.json as { slug: string }).slug).not.toBe(team.slug);

    const list = await call("listTeams", owner);
    expect((list.json as { teams: { id: string; role: string }[] }).teams.map((t) => t.id)).toEqual([
      team.id,
      (again.json as { id: string }).id,
    ]);
    const read = await call("team", owner, { team_id: team.id });
    expect(read.json).toMatchObject({ id: team.id, members_count: 1, role: "owner" });

    const renamed = await call(
      "patchTeam",
      owner,
      { team_id: team.id },
      { method: "PATCH", body: { name: "Radio Café", slug: `radio-${team.id.slice(-8)}` } },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: "Radio Café", slug: `radio-${team.id.slice(-8)}` });
    const taken = await call(
      "patchTeam",
      owner,
      { team_id: team.id },
      { method: "PATCH", body: { slug: (again.json as { slug: string }).slug } },
    );
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "slug_taken" });
    const takenAtCreate = await call("teams", owner, {}, { body: { name: "x", slug: `radio-${team.id.slice(-8)}` } });
    expect(takenAtCreate.status).toBe(409);
    expect(takenAtCreate.json).toMatchObject({ code: "slug_taken" });

    const audit = await call("audit", owner, { team_id: team.id });
    expect((audit.json as { events: { action: string }[] }).events.map((e) => e.action)).toEqual([
      "team.renamed",
      "team.created",
    ]);
  });

  it("is not there for anyone outside it: another team's id, a person's id, a made-up id are all 404", async () => {
    const owner = await person();
    const outsider = await person();
    const team = await newTeam(owner);
    const theirs = await newTeam(outsider);
    for (const id of [team, owner.id, "no-such-team", "é"]) {
      for (const [route, method, body] of [
        ["team", "GET", undefined],
        ["patchTeam", "PATCH", { name: "mine now" }],
        ["deleteTeam", "DELETE", undefined],
        ["members", "GET", undefined],
        ["invitations", "GET", undefined],
        ["invite", "POST", { email: outsider.email, role: "member" }],
        ["audit", "GET", undefined],
        ["usage", "GET", undefined],
        ["transfer", "POST", { user_id: outsider.id }],
      ] as const) {
        const answer = await call(route, outsider, { team_id: id }, { method, body });
        expect(answer.status, `${route} ${id}`).toBe(404);
        expect(answer.json).toMatchObject({ code: "not_found" });
      }
    }
    // A member of one team cannot reach another team's members or invitations through their own team's path.
    expect((await invite(theirs, outsider, "someone@example.test")).status).toBe(201);
    const [theirInvitation] = (
      (await call("invitations", outsider, { team_id: theirs })).json as { invitations: { id: string }[] }
    ).invitations;
    expect(
      (await call("revoke", owner, { team_id: team, invitation_id: theirInvitation.id }, { method: "DELETE" })).status,
    ).toBe(404);
    expect(
      (
        await call(
          "patchMember",
          owner,
          { team_id: team, user_id: outsider.id },
          { method: "PATCH", body: { role: "viewer" } },
        )
      ).status,
    ).toBe(404);
    expect(
      (await call("removeMember", owner, { team_id: team, user_id: outsider.id }, { method: "DELETE" })).status,
    ).toBe(404);
    expect((await call("transfer", owner, { team_id: team }, { body: { user_id: outsider.id } })).status).toBe(404);
    expect(await ctx.db.membership.count({ where: { teamId: theirs } })).toBe(1);
  });

  it("is deleted by its owner only, with everything it owns, and not while a paid subscription is live", async () => {
    const owner = await person();
    const admin = await person();
    const team = await newTeam(owner);
    await join(team, owner, admin, "admin");
    await ctx.db.transcription.create({
      data: { userId: team, platform: "youtube", videoId: "abc", lang: "en", actorId: admin.id },
    });
    expect((await call("deleteTeam", admin, { team_id: team }, { method: "DELETE" })).status).toBe(403);
    await ctx.db.subscription.create({
      data: { userId: team, tier: "pro", stripeSubscriptionId: `sub_${team}`, status: "active" },
    });
    const refused = await call("deleteTeam", owner, { team_id: team }, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "subscription_active" });
    await ctx.db.subscription.update({ where: { userId: team }, data: { status: "canceled", tier: "free" } });
    // An uploaded file of the team's: its row goes with the team, so the file goes with the deletion.
    const { localPaths } = await import("@/lib/uploads/objects");
    const objectPath = `uploads/${team}/AAAAAAAAAAAAAAAAAAAAAA/interview.wav`;
    const file = localPaths(objectPath).final;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "RIFF");
    await ctx.db.upload.create({
      data: {
        userId: team,
        objectPath,
        filename: "interview.wav",
        contentType: "audio/wav",
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    expect((await call("deleteTeam", owner, { team_id: team }, { method: "DELETE" })).status).toBe(204);
    expect(existsSync(file)).toBe(false);
    expect(await ctx.db.user.findUnique({ where: { id: team } })).toBeNull();
    expect(await ctx.db.membership.count({ where: { teamId: team } })).toBe(0);
    expect(await ctx.db.transcription.count({ where: { userId: team } })).toBe(0);
    expect(await ctx.db.auditEvent.count({ where: { teamId: team } })).toBe(0);
    expect((await call("team", admin, { team_id: team })).status).toBe(404);
    // The members themselves are untouched.
    expect(await ctx.db.user.count({ where: { id: { in: [owner.id, admin.id] } } })).toBe(2);
  });
});

describe("members and roles", () => {
  it("lists members, changes roles by the rules (only an owner makes or unmakes an owner), removes and lets leave", async () => {
    const owner = await person();
    const admin = await person();
    const member = await person();
    const viewer = await person();
    const team = await newTeam(owner);
    await join(team, owner, admin, "admin");
    await join(team, owner, member, "member");
    await join(team, admin, viewer, "viewer");

    const members = await call("members", viewer, { team_id: team });
    expect(members.status).toBe(200);
    expect((members.json as { members: { user_id: string; role: string }[] }).members).toEqual([
      expect.objectContaining({ user_id: owner.id, role: "owner", email: owner.email }),
      expect.objectContaining({ user_id: admin.id, role: "admin" }),
      expect.objectContaining({ user_id: member.id, role: "member" }),
      expect.objectContaining({ user_id: viewer.id, role: "viewer", managed_by_identity_provider: false }),
    ]);

    const patch = (by: Person, who: Person, role: string) =>
      call("patchMember", by, { team_id: team, user_id: who.id }, { method: "PATCH", body: { role } });
    expect((await patch(member, viewer, "member")).status).toBe(403);
    const forbidden = await patch(admin, member, "owner");
    expect(forbidden.status).toBe(403);
    expect((forbidden.json as { detail: string }).detail).toMatch(/owner/);
    expect((await patch(admin, owner, "admin")).status).toBe(403);
    const raised = await patch(admin, viewer, "member");
    expect(raised.status).toBe(200);
    expect(raised.json).toMatchObject({ user_id: viewer.id, role: "member" });

    const lastOwner = await patch(owner, owner, "admin");
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.json).toMatchObject({ code: "last_owner" });
    const leave = (who: Person, target = who) =>
      call("removeMember", who, { team_id: team, user_id: target.id }, { method: "DELETE" });
    expect((await leave(owner)).status).toBe(409);

    expect((await patch(owner, admin, "owner")).status).toBe(200);
    expect((await patch(owner, owner, "admin")).status).toBe(200); // another owner now
    expect((await leave(admin, owner)).status).toBe(204); // an owner removes an admin
    expect((await call("team", owner, { team_id: team })).status).toBe(404);
    expect((await leave(member, viewer)).status).toBe(403); // a member removes no one
    expect((await leave(viewer)).status).toBe(204); // anyone leaves
    expect((await call("team", viewer, { team_id: team })).status).toBe(404);
    expect((await leave(admin, admin)).status).toBe(409); // the last owner again

    const actions = (
      (await call("audit", admin, { team_id: team }, { query: "?limit=200" })).json as {
        events: { action: string; actor: { id: string | null; label: string } }[];
      }
    ).events;
    expect(actions.filter((e) => e.action === "member.role_changed")).toHaveLength(3);
    expect(actions.find((e) => e.action === "member.left")).toMatchObject({
      actor: { id: viewer.id, label: viewer.email },
    });
    // The owner who was removed is still named in the trail.
    expect(actions.filter((e) => e.actor.label === owner.email).length).toBeGreaterThan(0);
    expect(actions.find((e) => e.action === "member.removed")).toMatchObject({ actor: { id: admin.id } });
  });

  it("transfers ownership: the member becomes owner, the owner admin; only an owner may", async () => {
    const owner = await person();
    const admin = await person();
    const team = await newTeam(owner);
    await join(team, owner, admin, "admin");
    expect((await call("transfer", admin, { team_id: team }, { body: { user_id: admin.id } })).status).toBe(403);
    expect((await call("transfer", owner, { team_id: team }, { body: { user_id: owner.id } })).status).toBe(422);
    const moved = await call("transfer", owner, { team_id: team }, { body: { user_id: admin.id } });
    expect(moved.status).toBe(200);
    const roles = Object.fromEntries(
      (moved.json as { members: { user_id: string; role: string }[] }).members.map((m) => [m.user_id, m.role]),
    );
    expect(roles).toEqual({ [admin.id]: "owner", [owner.id]: "admin" });
    const audit = (await call("audit", admin, { team_id: team })).json as { events: { action: string }[] };
    expect(audit.events[0].action).toBe("ownership.transferred");
  });

  it("applies an identity provider's role through setMembershipRole, with the same rules", async () => {
    const { setMembershipRole } = await import("@/lib/membership/set-role");
    const owner = await person();
    const someone = await person();
    const team = await newTeam(owner);
    const idp = { id: null, label: "identity provider" };
    await setMembershipRole(team, someone.id, "member", { actor: idp, managedByIdentityProvider: true });
    const members = (await call("members", owner, { team_id: team })).json as {
      members: { user_id: string; managed_by_identity_provider: boolean; role: string }[];
    };
    expect(members.members.find((m) => m.user_id === someone.id)).toMatchObject({
      role: "member",
      managed_by_identity_provider: true,
    });
    await setMembershipRole(team, someone.id, "admin", { actor: idp, managedByIdentityProvider: true });
    await expect(
      setMembershipRole(team, owner.id, null, { actor: idp, managedByIdentityProvider: true }),
    ).rejects.toMatchObject({ code: "last_owner" });
    await setMembershipRole(team, someone.id, null, { actor: idp, managedByIdentityProvider: true });
    expect(await ctx.db.membership.count({ where: { teamId: team } })).toBe(1);
    const events = (await call("audit", owner, { team_id: team })).json as {
      events: { action: string; actor: { id: string | null; label: string } }[];
    };
    expect(events.events.slice(0, 3).map((e) => [e.action, e.actor.label])).toEqual([
      ["member.removed", "identity provider"],
      ["member.role_changed", "identity provider"],
      ["member.joined", "identity provider"],
    ]);
  });
});

describe("invitations", () => {
  it("mail a single-use link (only its SHA-256 stored) that the invited person accepts once, in any letter case", async () => {
    const owner = await person();
    const invited = await person();
    const team = await newTeam(owner);
    const mixedCase = invited.email.replace(/^user/, "User").replace("example", "EXAMPLE");
    const sent = await invite(team, owner, mixedCase, "viewer");
    expect(sent.status).toBe(201);
    const invitation = sent.json as { id: string; email: string; role: string; expires_at: string };
    expect(invitation).toMatchObject({ email: invited.email, role: "viewer" });
    const days = (Date.parse(invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const token = tokenMailedTo(invited.email);
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
    const row = await ctx.db.teamInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await call("invitations", owner, { team_id: team })).json).toMatchObject({
      invitations: [{ id: invitation.id }],
    });

    const accepted = await call("accept", invited, {}, { body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ team: { id: team, role: "viewer" } });
    const reused = await call("accept", invited, {}, { body: { token } });
    expect(reused.status).toBe(404);
    expect(reused.json).toMatchObject({ code: "invitation_invalid" });
    expect((await call("invitations", owner, { team_id: team })).json).toEqual({ invitations: [] });
    const actions = ((await call("audit", owner, { team_id: team })).json as { events: { action: string }[] }).events;
    expect(actions.map((e) => e.action).slice(0, 2)).toEqual(["member.joined", "member.invited"]);
  });

  it("cannot be guessed, accepted by another address or an unverified one, after revocation or expiry", async () => {
    const owner = await person();
    const invited = await person();
    const other = await person();
    const unverified = await person({ verified: false });
    const team = await newTeam(owner);

    for (const token of [randomBytes(32).toString("base64url"), "x", "é".repeat(150)]) {
      const guessed = await call("accept", invited, {}, { body: { token } });
      expect(guessed.status).toBe(404);
      expect(guessed.json).toMatchObject({ code: "invitation_invalid" });
    }

    expect((await invite(team, owner, invited.email)).status).toBe(201);
    const token = tokenMailedTo(invited.email);
    const wrong = await call("accept", other, {}, { body: { token } });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toMatchObject({ code: "invitation_email_mismatch" });
    expect(JSON.stringify(wrong.json)).not.toContain(invited.email);

    // An address no sign-in proved does not count, even when it is the invited one.
    expect((await invite(team, owner, unverified.email)).status).toBe(201);
    const notProven = await call("accept", unverified, {}, { body: { token: tokenMailedTo(unverified.email) } });
    expect(notProven.status).toBe(403);
    expect((notProven.json as { detail: string }).detail).toMatch(/not verified/);
    // The same address signed in through an OAuth provider is proven.
    await ctx.db.account.create({
      data: { userId: unverified.id, type: "oauth", provider: "github", providerAccountId: unverified.id },
    });
    expect((await call("accept", unverified, {}, { body: { token: tokenMailedTo(unverified.email) } })).status).toBe(
      200,
    );

    // Refused attempts used nothing: the invited person still can, once.
    expect((await call("accept", invited, {}, { body: { token } })).status).toBe(200);

    const late = await person();
    expect((await invite(team, owner, late.email)).status).toBe(201);
    await ctx.db.teamInvitation.updateMany({
      where: { teamId: team, email: late.email },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await call("accept", late, {}, { body: { token: tokenMailedTo(late.email) } });
    expect(expired.status).toBe(404);
    expect((expired.json as { detail: string }).detail).toMatch(/expired/);

    const revokedPerson = await person();
    const sent = await invite(team, owner, revokedPerson.email);
    const id = (sent.json as { id: string }).id;
    expect((await call("revoke", owner, { team_id: team, invitation_id: id }, { method: "DELETE" })).status).toBe(204);
    expect((await call("revoke", owner, { team_id: team, invitation_id: id }, { method: "DELETE" })).status).toBe(404);
    const revoked = await call("accept", revokedPerson, {}, { body: { token: tokenMailedTo(revokedPerson.email) } });
    expect(revoked.status).toBe(404);
    expect((revoked.json as { detail: string }).detail).toMatch(/revoked/);

    // A second invitation to the same address replaces the first: the old link stops working.
    const twice = await person();
    await invite(team, owner, twice.email);
    const first = tokenMailedTo(twice.email);
    await invite(team, owner, twice.email);
    const second = tokenMailedTo(twice.email);
    expect(second).not.toBe(first);
    expect((await call("accept", twice, {}, { body: { token: first } })).status).toBe(404);
    expect((await call("accept", twice, {}, { body: { token: second } })).status).toBe(200);

    const actions = (
      (await call("audit", owner, { team_id: team }, { query: "?limit=200" })).json as {
        events: { action: string }[];
      }
    ).events.map((e) => e.action);
    expect(actions).toContain("invitation.revoked");
  });

  it("is used once when accepted at the same time from two requests", async () => {
    const owner = await person();
    const invited = await person();
    const team = await newTeam(owner);
    await invite(team, owner, invited.email);
    const token = tokenMailedTo(invited.email);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call("accept", invited, {}, { body: { token } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(await ctx.db.membership.count({ where: { teamId: team } })).toBe(2);
  });

  it("are sent by admins only, an owner's only by an owner, and not to a member", async () => {
    const owner = await person();
    const admin = await person();
    const member = await person();
    const team = await newTeam(owner);
    await join(team, owner, admin, "admin");
    await join(team, owner, member, "member");
    expect((await invite(team, member, "x@example.test")).status).toBe(403);
    expect((await call("invitations", member, { team_id: team })).status).toBe(403);
    expect((await invite(team, admin, "x@example.test", "owner")).status).toBe(403);
    const already = await invite(team, admin, member.email.toUpperCase());
    expect(already.status).toBe(409);
    expect(already.json).toMatchObject({ code: "already_member" });
    // An address a provider gave in capitals (as GitHub may) is the same address.
    await ctx.db.user.update({ where: { id: member.id }, data: { email: member.email.toUpperCase() } });
    expect((await invite(team, admin, member.email)).json).toMatchObject({ code: "already_member" });
    expect((await invite(team, owner, "new-owner@example.test", "owner")).status).toBe(201);
  });
});

describe("limits", () => {
  it("a person owns at most TEAM_MAX_OWNED teams, also when creating them at once", async () => {
    const owner = await person();
    const answers = await Promise.all(
      Array.from({ length: MAX_OWNED + 3 }, (_, i) => call("teams", owner, {}, { body: { name: `Team ${i}` } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_OWNED);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ code: "too_many_teams" });
    }
    // Nor can one be handed to them.
    const other = await person();
    const team = await newTeam(other);
    await join(team, other, owner, "admin");
    const transfer = await call("transfer", other, { team_id: team }, { body: { user_id: owner.id } });
    expect(transfer.status).toBe(409);
    expect(transfer.json).toMatchObject({ code: "too_many_teams" });
  });

  it("pending invitations, members and invitations per day are limited", async () => {
    const owner = await person();
    const team = await newTeam(owner);
    const emails = Array.from({ length: MAX_PENDING + 1 }, (_, i) => `pending-${i}-${team}@example.test`);
    for (const email of emails.slice(0, MAX_PENDING)) expect((await invite(team, owner, email)).status).toBe(201);
    const pending = await invite(team, owner, emails[MAX_PENDING]);
    expect(pending.status).toBe(409);
    expect(pending.json).toMatchObject({ code: "too_many_invitations" });

    // Members and pending invitations share TEAM_MAX_MEMBERS: 1 owner + 1 member + 3 pending = 5.
    const member = await person();
    const list = (await call("invitations", owner, { team_id: team })).json as { invitations: { id: string }[] };
    await call("revoke", owner, { team_id: team, invitation_id: list.invitations[0].id }, { method: "DELETE" });
    await join(team, owner, member);
    const full = await invite(team, owner, `full-${team}@example.test`);
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ code: "too_many_members" });

    // Invitations per day count every one sent, revoked ones too.
    const sentToday = await ctx.db.teamInvitation.count({ where: { teamId: team } });
    const pendingNow = await ctx.db.teamInvitation.findMany({
      where: { teamId: team, revokedAt: null, acceptedAt: null },
    });
    for (const row of pendingNow)
      await call("revoke", owner, { team_id: team, invitation_id: row.id }, { method: "DELETE" });
    for (let i = sentToday; i < PER_DAY; i++) {
      const sent = await invite(team, owner, `daily-${i}-${team}@example.test`);
      expect(sent.status).toBe(201);
      await call(
        "revoke",
        owner,
        { team_id: team, invitation_id: (sent.json as { id: string }).id },
        { method: "DELETE" },
      );
    }
    const daily = await invite(team, owner, `daily-last-${team}@example.test`);
    expect(daily.status).toBe(429);
    expect(daily.json).toMatchObject({ code: "invitations_exhausted" });
    const retryAfter = Number(daily.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
  });
});

describe("hostile input", () => {
  it("is answered with a 4xx, never a 500", async () => {
    const owner = await person();
    const team = await newTeam(owner);
    const bodies: unknown[] = [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      { name: 42 },
      { name: ["a"] },
      { name: "line\nbreak" },
      { name: "nul\u0000" },
      { name: "lone \ud800 surrogate" },
      { name: "ok", slug: "Has Spaces" },
      { name: "ok", slug: "-dash" },
      { name: "ok", slug: "ab" },
      { name: "ok", slug: "x".repeat(41) },
      { name: "ok", slug: "ünï" },
      { name: "ok", slug: 7 },
      "not json",
      "[]",
      "null",
    ];
    for (const body of bodies) {
      const answer = await call("teams", owner, {}, { body });
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
    }
    const unicode = await call("teams", owner, {}, { body: { name: "Équipe 🎙️ 東京" } });
    expect(unicode.status).toBe(201);
    expect((unicode.json as { slug: string }).slug).toMatch(/^equipe(-[a-z0-9]+)?$/);

    const cases: [string, Record<string, string>, { method?: string; body?: unknown; query?: string }][] = [
      ["invite", { team_id: team }, { body: { email: "not-an-email", role: "member" } }],
      ["invite", { team_id: team }, { body: { email: `${"a".repeat(250)}@example.test` } }],
      ["invite", { team_id: team }, { body: { email: "a@example.test", role: "superuser" } }],
      ["invite", { team_id: team }, { body: { email: ["a@example.test"] } }],
      ["patchMember", { team_id: team, user_id: owner.id }, { method: "PATCH", body: { role: "god" } }],
      ["patchMember", { team_id: team, user_id: "x".repeat(500) }, { method: "PATCH", body: { role: "admin" } }],
      ["patchTeam", { team_id: team }, { method: "PATCH", body: { name: "x".repeat(5000) } }],
      ["patchTeam", { team_id: "x".repeat(500) }, { method: "PATCH", body: { name: "fine" } }],
      ["transfer", { team_id: team }, { body: { user_id: 12 } }],
      ["transfer", { team_id: team }, { body: {} }],
      ["accept", {}, { body: { token: "" } }],
      ["accept", {}, { body: { token: "t".repeat(5000) } }],
      ["accept", {}, { body: { token: { $ne: null } } }],
      ["audit", { team_id: team }, { query: "?cursor=not-a-cursor" }],
      [
        "audit",
        { team_id: team },
        { query: `?cursor=${Buffer.from("2026-01-01T00:00:00.000Z|'; DROP").toString("base64url")}` },
      ],
      ["audit", { team_id: team }, { query: "?limit=0" }],
      ["audit", { team_id: team }, { query: "?limit=abc" }],
      ["audit", { team_id: team }, { query: "?limit=100000" }],
    ];
    for (const [route, params, options] of cases) {
      const answer = await call(route, owner, params, options);
      const what = `${route} ${JSON.stringify(options).slice(0, 80)}`;
      expect(answer.status, what).toBeGreaterThanOrEqual(400);
      expect(answer.status, what).toBeLessThan(500);
    }
  });

  it("refuses a request without a credential", async () => {
    const answer = await callRoute(r.listTeams, "/v1/teams");
    expect(answer.status).toBe(401);
  });
});

describe("the audit trail and usage", () => {
  it("pages the trail newest first with a cursor, every event once", async () => {
    const owner = await person();
    const team = await newTeam(owner);
    for (let i = 0; i < 4; i++)
      await call("patchTeam", owner, { team_id: team }, { method: "PATCH", body: { name: `Name ${i}` } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(
        "audit",
        owner,
        { team_id: team },
        {
          query: `?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        },
      );
      expect(page.status).toBe(200);
      const json = page.json as { events: { id: string; action: string }[]; next_cursor: string | null };
      expect(json.events.length).toBeLessThanOrEqual(2);
      seen.push(...json.events.map((e) => e.id));
      cursor = json.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const member = await person();
    await join(team, owner, member);
    expect((await call("audit", member, { team_id: team })).status).toBe(403);
  });

  it("gives admins the period's usage and each member's seconds and requests", async () => {
    const owner = await person();
    const member = await person();
    const team = await newTeam(owner);
    await join(team, owner, member);
    const now = new Date();
    await ctx.db.transcription.createMany({
      data: [
        {
          userId: team,
          platform: "youtube",
          videoId: "a",
          lang: "en",
          state: "done",
          totalSeconds: 120,
          actorId: member.id,
        },
        {
          userId: team,
          platform: "youtube",
          videoId: "b",
          lang: "en",
          state: "done",
          totalSeconds: 30,
          actorId: member.id,
        },
        {
          userId: team,
          platform: "youtube",
          videoId: "c",
          lang: "en",
          state: "error",
          totalSeconds: 0,
          actorId: member.id,
        },
        {
          userId: team,
          platform: "youtube",
          videoId: "d",
          lang: "en",
          state: "done",
          totalSeconds: 60,
          actorId: owner.id,
        },
        // Another account's entry by the same person is not the team's.
        {
          userId: member.id,
          platform: "youtube",
          videoId: "e",
          lang: "en",
          state: "done",
          totalSeconds: 999,
          actorId: member.id,
        },
      ],
    });
    const usage = await call("usage", owner, { team_id: team });
    expect(usage.status).toBe(200);
    const json = usage.json as {
      period_start: string;
      period_end: string;
      members: { user_id: string; used_seconds: number; requests: number }[];
    };
    expect(Date.parse(json.period_start)).toBeLessThanOrEqual(now.getTime());
    expect(Date.parse(json.period_end)).toBeGreaterThan(now.getTime());
    expect(json.members).toEqual([
      { user_id: owner.id, email: owner.email, used_seconds: 60, requests: 1 },
      { user_id: member.id, email: member.email, used_seconds: 150, requests: 2 },
    ]);
    expect((await call("usage", member, { team_id: team })).status).toBe(403);
  });
});

describe("recordAudit", () => {
  it("writes in the caller's transaction, and nothing for a person's own account", async () => {
    const { recordAudit, AUDIT_ACTIONS } = await import("@/lib/membership/audit");
    const owner = await person();
    const team = await newTeam(owner);
    const entry = { actorId: owner.id, actorLabel: owner.email, action: "key.created" as const, target: "vbt_ab12" };
    await recordAudit(ctx.db, { ...entry, teamId: owner.id });
    expect(await ctx.db.auditEvent.count({ where: { teamId: owner.id } })).toBe(0);
    await expect(
      ctx.db.$transaction(async (tx) => {
        await recordAudit(tx, { ...entry, teamId: team });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await ctx.db.auditEvent.count({ where: { teamId: team, action: "key.created" } })).toBe(0);
    await recordAudit(ctx.db, { ...entry, teamId: team, data: { prefix: "vbt_ab12" } });
    const events = (await call("audit", owner, { team_id: team })).json as { events: { action: string }[] };
    expect(events.events[0]).toMatchObject({ action: "key.created", target: "vbt_ab12", data: { prefix: "vbt_ab12" } });
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
  });
});

describe("credentials", () => {
  it("a dashboard session manages teams as the API key does", async () => {
    const { encode } = await import("next-auth/jwt");
    const { authSecret } = await import("@/lib/auth/secret");
    const { startSession } = await import("@/lib/auth/sessions");
    const owner = await person();
    const team = await newTeam(owner);
    const sid = await startSession(owner.id);
    const token = await encode({ token: { sub: owner.id, sid }, secret: authSecret(), salt: "authjs.session-token" });
    const session = { ...owner, headers: { cookie: `authjs.session-token=${token}` } };
    expect((await call("team", session, { team_id: team })).json).toMatchObject({ id: team, role: "owner" });
  });
});
