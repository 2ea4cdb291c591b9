import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { seedTranscript, videoIds } from "@/test/publishing";
import { callRoute } from "@/test/request";

// What a person set up in a team goes with them (decision 0051), by every path that ends or lowers a membership:
// removal, leaving, a lower role, SCIM's deactivation and its groups. Their team alerts are handed to the team under a
// new feed URL, their webhook endpoints stop receiving and the owners are told, the export destinations they added
// stop taking the team's transcripts, the invitations they sent are void;
// a person SCIM deactivated is not let back in by an invitation sent before or by a verified domain.

type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const SLUG = `setup-${Math.random().toString(36).slice(2, 10)}`;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let logs: ReturnType<typeof captureLogs>;
let r: Record<string, Route>;
let exportRoot: string;
const nextVideo = videoIds("set");

beforeAll(async () => {
  exportRoot = await mkdtemp(path.join(tmpdir(), "verbatim-setup-exports-"));
  process.env.EXPORT_FOLDER_ROOT = exportRoot;
  Object.assign(process.env, {
    APP_URL: "http://localhost:3000",
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
    OIDC_TEAM_ROLES: `${SLUG}:admin=Verbatim Admins`,
  });
  delete process.env.SMTP_URL;
  ctx = await useTestDatabase();
  logs = captureLogs("info");
  r = {
    alerts: (await import("@/app/v1/alerts/route")).POST,
    feed: (await import("@/app/alerts/[token]/feed.xml/route")).GET,
    webhooks: (await import("@/app/v1/me/webhooks/route")).POST,
    rotateSecret: (await import("@/app/v1/me/webhooks/[id]/rotate-secret/route")).POST,
    patchMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).PATCH,
    removeMember: (await import("@/app/v1/teams/[team_id]/members/[user_id]/route")).DELETE,
    invite: (await import("@/app/v1/teams/[team_id]/invitations/route")).POST,
    accept: (await import("@/app/v1/invitations/accept/route")).POST,
    destinations: (await import("@/app/v1/exports/destinations/route")).POST,
  } as Record<string, Route>;
});

afterAll(async () => {
  logs?.restore();
  await ctx?.teardown();
  if (exportRoot) await rm(exportRoot, { recursive: true, force: true });
});

async function session(personId: string, workspace: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return { cookie: `${cookie}; verbatim-workspace=${workspace}`, origin: "http://localhost:3000" };
}

interface Person {
  id: string;
  email: string;
  headers: Record<string, string>;
}

async function person(): Promise<Person> {
  const caller = await createCaller(ctx.db);
  const user = await ctx.db.user.update({ where: { id: caller.userId }, data: { emailVerified: new Date() } });
  return { id: user.id, email: user.email!, headers: caller.headers };
}

async function team(owner: Person, members: [Person, "admin" | "member" | "viewer"][] = [], slug?: string) {
  const row = await ctx.db.user.create({
    data: { kind: "team", name: "Setups", slug: slug ?? `setups-${Math.random().toString(36).slice(2, 10)}` },
  });
  await ctx.db.membership.create({ data: { teamId: row.id, userId: owner.id, role: "owner" } });
  for (const [who, role] of members) await ctx.db.membership.create({ data: { teamId: row.id, userId: who.id, role } });
  return row.id;
}

const tokenOf = (feedUrl: string) => /\/alerts\/([^/]+)\/feed\.xml$/.exec(feedUrl)![1]!;
const feedStatus = async (token: string) =>
  (await callRoute(r.feed, `/alerts/${token}/feed.xml`, { params: { token } })).status;

/** A team alert `who` saves in the dashboard: its id and the feed URL they were shown. */
async function alertBy(teamId: string, who: Person, email = true) {
  const saved = await callRoute(r.alerts, "/v1/alerts", {
    method: "POST",
    headers: await session(who.id, teamId),
    body: { query: "lighthouse", scope: { kind: "library" }, email },
  });
  expect(saved.status, saved.text).toBe(201);
  const body = saved.json as { id: string; feed_url: string };
  return { id: body.id, token: tokenOf(body.feed_url) };
}

/** A webhook endpoint `who` registers for the team in the dashboard. */
async function endpointBy(teamId: string, who: Person, url: string) {
  const made = await callRoute(r.webhooks, "/v1/me/webhooks", {
    method: "POST",
    headers: await session(who.id, teamId),
    body: { url, event_types: ["transcript.completed", "alert.matched"] },
  });
  expect(made.status, made.text).toBe(201);
  return (made.json as { id: string }).id;
}

/** The messages an event of the team would queue now, per endpoint. */
async function wouldReceive(teamId: string): Promise<string[]> {
  const { emitWebhookEvent } = await import("@/lib/webhooks/emit-event");
  const ids: string[] = [];
  const marker = `probe-${Math.random().toString(36).slice(2)}`;
  await ctx.db
    .$transaction(async (tx) => {
      await emitWebhookEvent(tx, {
        userId: teamId,
        payload: {
          type: "transcript.completed",
          timestamp: new Date().toISOString(),
          data: { job_id: marker, status: "done" },
        } as never,
      });
      const rows = await tx.webhookDelivery.findMany({
        where: { userId: teamId, payload: { path: ["data", "job_id"], equals: marker } },
        select: { endpointId: true },
      });
      ids.push(...rows.map((row) => row.endpointId!));
      // Only what would be queued: nothing is kept.
      throw new Error("rollback");
    })
    .catch((error: Error) => {
      if (error.message !== "rollback") throw error;
    });
  return ids.sort();
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

describe("a member's team alerts, when they go", () => {
  it("are handed to the team at their removal: the feed URL they were shown answers 404, no more mail", async () => {
    const [owner, maker, stays] = [await person(), await person(), await person()];
    const teamId = await team(owner, [
      [maker, "member"],
      [stays, "member"],
    ]);
    const theirs = await alertBy(teamId, maker);
    const other = await alertBy(teamId, stays);
    expect(await feedStatus(theirs.token)).toBe(200);

    expect((await remove(teamId, owner, maker)).status).toBe(204);
    expect(await feedStatus(theirs.token)).toBe(404);
    const kept = await ctx.db.alert.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(kept).toMatchObject({ userId: teamId, createdById: null, email: false, pausedAt: null });
    expect(await feedStatus(kept.feedToken)).toBe(200);
    // Someone else's alert is not touched.
    expect(await feedStatus(other.token)).toBe(200);
    const line = await ctx.db.auditEvent.findFirst({ where: { teamId, action: "alert.handed_over" } });
    expect(line).toMatchObject({ target: theirs.id, data: { reason: "member.removed", user_id: maker.id } });
  });

  it("are handed over when they leave or become a viewer; an admin lowered to member keeps theirs", async () => {
    const [owner, leaver, lowered, admin] = [await person(), await person(), await person(), await person()];
    const teamId = await team(owner, [
      [leaver, "member"],
      [lowered, "member"],
      [admin, "admin"],
    ]);
    const [left, viewer, adminAlert] = [
      await alertBy(teamId, leaver),
      await alertBy(teamId, lowered),
      await alertBy(teamId, admin),
    ];
    expect((await remove(teamId, leaver, leaver)).status).toBe(204);
    expect((await setRole(teamId, owner, lowered, "viewer")).status).toBe(200);
    expect((await setRole(teamId, owner, admin, "member")).status).toBe(200);
    expect(await feedStatus(left.token)).toBe(404);
    expect(await feedStatus(viewer.token)).toBe(404);
    expect(await feedStatus(adminAlert.token)).toBe(200);
  });
});

describe("a team's webhook endpoint, when the admin who registered it goes", () => {
  it("stops receiving at their removal; the owners are told by mail and in the trail; others' endpoints go on", async () => {
    const [owner, admin, other] = [await person(), await person(), await person()];
    const teamId = await team(owner, [
      [admin, "admin"],
      [other, "admin"],
    ]);
    const theirs = await endpointBy(teamId, admin, "https://example.com/theirs");
    const kept = await endpointBy(teamId, other, "https://example.com/kept");
    expect(await wouldReceive(teamId)).toEqual([theirs, kept].sort());

    expect((await remove(teamId, owner, admin)).status).toBe(204);
    expect(await wouldReceive(teamId)).toEqual([kept]);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: theirs } });
    expect(row.disabledAt).not.toBeNull();
    expect(row.disabledReason).toContain("was removed from the team");
    const line = await ctx.db.auditEvent.findFirst({ where: { teamId, action: "webhook.disabled" } });
    expect(line).toMatchObject({
      target: "https://example.com/theirs",
      data: { endpoint_id: theirs, user_id: admin.id },
    });
    const told = logs.lines.filter((l) => l.msg === "team webhooks disabled" && l.team_id === teamId);
    expect(told.map((l) => [l.email, l.urls])).toEqual([[owner.email, ["https://example.com/theirs"]]]);

    // An admin who stays enables it again by rotating its secret, and it then goes with them.
    const rotated = await callRoute(r.rotateSecret, "/v1/test", {
      method: "POST",
      headers: await session(other.id, teamId),
      params: { id: theirs },
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(await wouldReceive(teamId)).toEqual([theirs, kept].sort());
    expect((await remove(teamId, owner, other)).status).toBe(204);
    expect(await wouldReceive(teamId)).toEqual([]);
  });

  it("stops when they are lowered below admin; messages already queued for it are not sent", async () => {
    const [owner, admin] = [await person(), await person()];
    const teamId = await team(owner, [[admin, "admin"]]);
    const theirs = await endpointBy(teamId, admin, "https://example.com/lowered");
    const { emitWebhookEvent } = await import("@/lib/webhooks/emit-event");
    await ctx.db.$transaction((tx) =>
      emitWebhookEvent(tx, {
        userId: teamId,
        payload: { type: "transcript.completed", timestamp: new Date().toISOString(), data: {} } as never,
      }),
    );
    expect((await setRole(teamId, owner, admin, "member")).status).toBe(200);
    expect(await wouldReceive(teamId)).toEqual([]);
    const queued = await ctx.db.webhookDelivery.findMany({ where: { endpointId: theirs } });
    expect(queued.map((d) => d.status)).toEqual(["failed"]);
  });
});

describe("a member's export destinations, when they go", () => {
  it("stop at their removal: what was waiting for them fails, and no new team transcript is queued to them", async () => {
    const [owner, admin, other] = [await person(), await person(), await person()];
    const teamId = await team(owner, [
      [admin, "admin"],
      [other, "admin"],
    ]);
    const folderBy = async (who: Person, folder: string) => {
      const made = await callRoute(r.destinations, "/v1/exports/destinations", {
        method: "POST",
        headers: await session(who.id, teamId),
        body: { kind: "folder", path: folder, name: folder },
      });
      expect(made.status, made.text).toBe(201);
      return (made.json as { id: string }).id;
    };
    const theirs = await folderBy(admin, "theirs");
    const kept = await folderBy(other, "kept");
    const queuedFor = async (transcriptId: string) =>
      (await ctx.db.exportDelivery.findMany({ where: { transcriptId }, select: { destinationId: true } }))
        .map((d) => d.destinationId)
        .sort();
    // No runner here: a delivery stays pending, as one waiting for its turn does.
    const before = await seedTranscript(ctx.db, teamId, { videoId: nextVideo() });
    expect(await queuedFor(before.id)).toEqual([theirs, kept].sort());

    expect((await remove(teamId, owner, admin)).status).toBe(204);
    const row = await ctx.db.exportDestination.findUniqueOrThrow({ where: { id: theirs } });
    expect(row.disabledAt).not.toBeNull();
    expect(row.disabledReason).toContain("was removed from the team");
    const waiting = await ctx.db.exportDelivery.findFirstOrThrow({
      where: { transcriptId: before.id, destinationId: theirs },
    });
    expect(waiting).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(waiting.lastError).toMatch(/destination was disabled/);
    const after = await seedTranscript(ctx.db, teamId, { videoId: nextVideo() });
    expect(await queuedFor(after.id)).toEqual([kept]);
  });
});

describe("a request let in just before its maker's removal committed", () => {
  it("makes no endpoint or alert, rotates no secret and no feed for them", async () => {
    const [owner, admin] = [await person(), await person()];
    const teamId = await team(owner, [[admin, "admin"]]);
    const endpoint = await endpointBy(teamId, admin, "https://example.com/raced");
    const alert = await alertBy(teamId, admin);
    expect((await remove(teamId, owner, admin)).status).toBe(204);
    // As a request authenticated before the removal would reach them: the role is read again under the team's lock.
    const caller = { userId: teamId, personId: admin.id, role: "admin" as const };
    const { createWebhookEndpoint } = await import("@/lib/webhooks/create-endpoint");
    const { rotateWebhookSecret } = await import("@/lib/webhooks/rotate-secret");
    const { createAlert, rotateFeed } = await import("@/lib/alerts/manage-alerts");
    await expect(
      createWebhookEndpoint(caller, { url: "https://example.com/late", event_types: ["alert.matched"] } as never),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(rotateWebhookSecret(caller, endpoint)).rejects.toMatchObject({ code: "not_found" });
    await expect(
      createAlert(caller, {
        query: "harbour",
        mode: "words",
        closeness: 0.5,
        scope: { kind: "library", team_id: null, follow_ids: [] },
        email: false,
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(rotateFeed(caller, alert.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await wouldReceive(teamId)).toEqual([]);
    expect(await ctx.db.alert.count({ where: { userId: teamId } })).toBe(1);
  });
});

describe("deprovisioning through SCIM", () => {
  const deactivate = {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "replace", path: "active", value: false }],
  };
  const memberOf = (teamId: string, userId: string) =>
    ctx.db.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });

  /** A team whose identity provider provisions Ana (e-mail of the team's verified domain), invited by hand before. */
  async function provisioned(slug: string) {
    const { createUser } = await import("@/lib/scim/users");
    const owner = await person();
    const teamId = await team(owner, [], slug);
    const domain = `deprovisioned-${Math.random().toString(36).slice(2, 8)}.test`;
    await ctx.db.teamDomain.create({
      data: { teamId, domain, token: "t", role: "member", verifiedDomain: domain, verifiedAt: new Date() },
    });
    const email = `ana@${domain}`;
    const ana = await ctx.db.user.create({ data: { email, name: "Ana", emailVerified: new Date() } });
    const invited = await callRoute(r.invite, "/v1/test", {
      method: "POST",
      headers: owner.headers,
      params: { team_id: teamId },
      body: { email, role: "viewer" },
    });
    expect(invited.status, invited.text).toBe(201);
    const link = logs.lines.findLast((l) => l.msg === "team invitation link" && l.email === email);
    const token = new URL(link!.url as string).pathname.split("/").at(-1)!;
    const scimTeam = { teamId, slug };
    const user = (await createUser(scimTeam, {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: email,
      emails: [{ value: email, primary: true }],
      active: true,
    })) as { id: string };
    expect(await memberOf(teamId, ana.id)).not.toBeNull();
    return { teamId, scimTeam, ana: { id: ana.id, email, headers: {} }, scimId: user.id, token };
  }

  it("a group's removal lowers an admin: their endpoints stop and their invitations are void; deactivation hands over their alerts", async () => {
    const { patchUser } = await import("@/lib/scim/users");
    const { createGroup, patchGroup } = await import("@/lib/scim/groups");
    const { teamId, scimTeam, ana, scimId } = await provisioned(SLUG);
    const group = (await createGroup(scimTeam, {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
      displayName: "Verbatim Admins",
      members: [{ value: scimId }],
    })) as { id: string };
    expect((await memberOf(teamId, ana.id))!.role).toBe("admin");
    const alert = await alertBy(teamId, ana);
    const endpoint = await endpointBy(teamId, ana, "https://example.com/ana");
    const invited = await callRoute(r.invite, "/v1/test", {
      method: "POST",
      headers: await session(ana.id, teamId),
      params: { team_id: teamId },
      body: { email: "someone@example.test", role: "member" },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(await wouldReceive(teamId)).toEqual([endpoint]);

    await patchGroup(scimTeam, group.id, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "remove", path: `members[value eq "${scimId}"]` }],
    });
    expect((await memberOf(teamId, ana.id))!.role).toBe("member");
    expect(await wouldReceive(teamId)).toEqual([]);
    expect(await ctx.db.teamInvitation.count({ where: { teamId, invitedById: ana.id, revokedAt: null } })).toBe(0);
    // A member may still save alerts: hers stays hers until she goes.
    expect(await feedStatus(alert.token)).toBe(200);

    await patchUser(scimTeam, scimId, deactivate);
    expect(await memberOf(teamId, ana.id)).toBeNull();
    expect(await feedStatus(alert.token)).toBe(404);
    expect(await ctx.db.alert.findUniqueOrThrow({ where: { id: alert.id } })).toMatchObject({ createdById: null });
  });

  it("lets a deactivated person back neither by an invitation sent before nor by the team's verified domain", async () => {
    const { patchUser } = await import("@/lib/scim/users");
    const { joinByVerifiedDomain } = await import("@/lib/membership/domain-join");
    const { teamId, scimTeam, ana, scimId, token } = await provisioned(`${SLUG}-b`);
    await patchUser(scimTeam, scimId, deactivate);
    expect(await memberOf(teamId, ana.id)).toBeNull();

    const accepted = await callRoute(r.accept, "/v1/invitations/accept", {
      method: "POST",
      headers: await session(ana.id, ana.id),
      body: { token },
    });
    expect(accepted.status, accepted.text).toBe(404);
    expect((accepted.json as { code: string }).code).toBe("invitation_invalid");
    expect(await joinByVerifiedDomain(ana.id, ana.email)).toBeNull();
    expect(await memberOf(teamId, ana.id)).toBeNull();

    // Activated again by the provider, she is a member again.
    await patchUser(scimTeam, scimId, { ...deactivate, Operations: [{ op: "replace", path: "active", value: true }] });
    expect(await memberOf(teamId, ana.id)).not.toBeNull();
  });
});
