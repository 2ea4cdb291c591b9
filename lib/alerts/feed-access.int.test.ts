// Who can still read an alert's matches: a paused alert's feed lists nothing, a feed URL can be replaced by the
// alert's maker and the team's admins, a match whose transcript its reader can no longer see loses its text and
// title in the inbox and the feed, and a query of common words only is refused. Route handlers on real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute as callRouteRaw } from "@/test/request";
import { storeTranscript } from "@/test/search";

async function callRoute(...args: Parameters<typeof callRouteRaw>) {
  const answer = await callRouteRaw(...args);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...answer, json: answer.json as any };
}

type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let r: Record<"alerts" | "alert" | "matches" | "feed" | "rotate", Route>;

beforeAll(async () => {
  Object.assign(process.env, {
    APP_URL: "https://verbatim.test",
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
  });
  delete process.env.SMTP_URL;
  ctx = await useTestDatabase();
  db = ctx.db;
  r = {
    alerts: (await import("@/app/v1/alerts/route")).POST,
    alert: (await import("@/app/v1/alerts/[id]/route")).PATCH,
    matches: (await import("@/app/v1/alerts/[id]/matches/route")).GET,
    feed: (await import("@/app/alerts/[token]/feed.xml/route")).GET,
  } as typeof r;
  r.rotate = async (...args) => (await import("@/app/v1/alerts/[id]/rotate-feed/route")).POST(...args);
});

afterAll(async () => {
  await ctx?.teardown();
});

async function session(personId: string, workspace?: string): Promise<Record<string, string>> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return { cookie: workspace ? `${cookie}; verbatim-workspace=${workspace}` : cookie, origin: "https://verbatim.test" };
}

const tokenOf = (feedUrl: string) => /\/alerts\/([^/]+)\/feed\.xml$/.exec(feedUrl)![1]!;
const feed = (token: string) => callRoute(r.feed, `/alerts/${token}/feed.xml`, { params: { token } });

async function save(headers: Record<string, string>, body: object) {
  const saved = await callRoute(r.alerts, "/v1/alerts", { headers, body });
  expect(saved.status, saved.text).toBe(201);
  return saved.json as { id: string; feed_url: string };
}

/** A match recorded for `alertId` on `transcriptId`, as record-match.ts stores one. */
async function matchOf(alertId: string, transcriptId: string, title: string, text: string) {
  return db.alertMatch.create({
    data: {
      alertId,
      transcriptId,
      title,
      moments: {
        transcript_id: transcriptId,
        title,
        platform: "youtube",
        source_url: "https://www.youtube.com/watch?v=x",
        moments: [
          {
            start: 1,
            end: 2,
            segment_index: 0,
            text,
            links: { viewer: `https://verbatim.test/v/${transcriptId}`, page: null, source: null },
          },
        ],
        matched_at: new Date().toISOString(),
      },
    },
  });
}

describe("a paused alert's feed", () => {
  it("lists no match while paused, and lists them again once resumed", async () => {
    const alice = await createCaller(db);
    const alert = await save(alice.headers, { query: "lighthouse", scope: { kind: "library" } });
    const { transcript } = await storeTranscript(db, {
      segments: [{ start: 0, end: 3, text: "the lighthouse keeper" }],
      lang: "en",
      title: "Keeper",
      userIds: [alice.userId],
    });
    await matchOf(alert.id, transcript.id, "Keeper", "the lighthouse keeper");
    const token = tokenOf(alert.feed_url);
    expect((await feed(token)).text).toContain("lighthouse keeper");

    const patch = (paused: boolean) =>
      callRoute(r.alert, `/v1/alerts/${alert.id}`, {
        method: "PATCH",
        headers: alice.headers,
        params: { id: alert.id },
        body: { paused },
      });
    expect((await patch(true)).status).toBe(200);
    const paused = await feed(token);
    expect(paused.status).toBe(200);
    expect(paused.text).not.toContain("<entry>");
    expect(paused.text).not.toContain("lighthouse keeper");
    expect(paused.text).toContain("paused");

    await patch(false);
    expect((await feed(token)).text).toContain("lighthouse keeper");
  });
});

describe("replacing a feed's URL", () => {
  async function teamWith(owner: string, members: [string, "admin" | "member" | "viewer"][]) {
    const team = await db.user.create({
      data: { kind: "team", name: "Feeds", slug: `feeds-${Math.random().toString(36).slice(2, 10)}` },
    });
    await db.membership.create({ data: { teamId: team.id, userId: owner, role: "owner" } });
    for (const [userId, role] of members) await db.membership.create({ data: { teamId: team.id, userId, role } });
    return team.id;
  }
  const rotate = (headers: Record<string, string>, id: string) =>
    callRoute(r.rotate, `/v1/alerts/${id}/rotate-feed`, { method: "POST", headers, params: { id } });

  it("by the alert's maker or a team admin: the old URL answers 404, the new one the matches", async () => {
    const [owner, maker, admin, other] = await Promise.all([1, 2, 3, 4].map(() => createCaller(db)));
    const teamId = await teamWith(owner!.userId, [
      [maker!.userId, "member"],
      [admin!.userId, "admin"],
      [other!.userId, "member"],
    ]);
    const alert = await save(await session(maker!.userId, teamId), { query: "harbour", scope: { kind: "library" } });
    const first = tokenOf(alert.feed_url);

    const refused = await rotate(await session(other!.userId, teamId), alert.id);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.code).toBe("forbidden");
    expect((await feed(first)).status).toBe(200);

    const byMaker = await rotate(await session(maker!.userId, teamId), alert.id);
    expect(byMaker.status, byMaker.text).toBe(200);
    const second = tokenOf(byMaker.json.feed_url);
    expect(second).not.toBe(first);
    expect((await feed(first)).status).toBe(404);
    expect((await feed(second)).status).toBe(200);

    const byAdmin = await rotate(await session(admin!.userId, teamId), alert.id);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect((await feed(second)).status).toBe(404);
    expect((await feed(tokenOf(byAdmin.json.feed_url))).status).toBe(200);

    const lines = await db.auditEvent.findMany({
      where: { teamId, action: "alert.feed_rotated" },
      orderBy: { createdAt: "asc" },
    });
    expect(lines.map((line) => [line.actorId, line.target])).toEqual([
      [maker!.userId, alert.id],
      [admin!.userId, alert.id],
    ]);
  });

  it("of a person's own alert, by them; another account's alert is a 404", async () => {
    const [alice, bob] = await Promise.all([createCaller(db), createCaller(db)]);
    const alert = await save(alice.headers, { query: "harbour", scope: { kind: "library" } });
    expect((await rotate(bob.headers, alert.id)).status).toBe(404);
    const rotated = await rotate(alice.headers, alert.id);
    expect(rotated.status).toBe(200);
    expect(rotated.json.feed_url).not.toBe(alert.feed_url);
  });
});

describe("a match whose transcript its reader can no longer see", () => {
  it("loses its text and title in the inbox and the feed when the library entry is deleted", async () => {
    const alice = await createCaller(db);
    const alert = await save(alice.headers, { query: "lighthouse", scope: { kind: "library" } });
    const { transcript, entries } = await storeTranscript(db, {
      segments: [{ start: 0, end: 3, text: "the lighthouse budget" }],
      lang: "en",
      title: "Budget meeting",
      userIds: [alice.userId],
    });
    await matchOf(alert.id, transcript.id, "Budget meeting", "the lighthouse budget");
    const inbox = () =>
      callRoute(r.matches, `/v1/alerts/${alert.id}/matches`, { headers: alice.headers, params: { id: alert.id } });
    expect((await inbox()).json.matches[0]).toMatchObject({ title: "Budget meeting" });

    await db.transcription.delete({ where: { id: entries[0]!.id } });
    const [gone] = (await inbox()).json.matches;
    expect(gone).toMatchObject({ transcript_id: transcript.id, title: null, moments: [], source_url: null });
    const text = (await feed(tokenOf(alert.feed_url))).text;
    expect(text).not.toContain("lighthouse budget");
    expect(text).not.toContain("Budget meeting");
  });

  it("loses them when a public alert's transcript is unpublished", async () => {
    const [alice, publisher] = await Promise.all([createCaller(db), createCaller(db)]);
    const alert = await save(alice.headers, { query: "lighthouse", scope: { kind: "public" } });
    const { transcript } = await storeTranscript(db, {
      segments: [{ start: 0, end: 3, text: "a public lighthouse story" }],
      lang: "en",
      title: "Public story",
      userIds: [publisher.userId],
    });
    const publication = await db.publication.create({
      data: {
        slug: `story-${transcript.id}`,
        userId: publisher.userId,
        transcriptId: transcript.id,
        publishedAt: new Date(),
      },
    });
    await matchOf(alert.id, transcript.id, "Public story", "a public lighthouse story");
    const token = tokenOf(alert.feed_url);
    expect((await feed(token)).text).toContain("a public lighthouse story");

    await db.publication.update({ where: { id: publication.id }, data: { publishedAt: null } });
    const text = (await feed(token)).text;
    expect(text).toContain("<entry>");
    expect(text).not.toContain("a public lighthouse story");
    expect(text).not.toContain("Public story");
    const [gone] = (
      await callRoute(r.matches, `/v1/alerts/${alert.id}/matches`, { headers: alice.headers, params: { id: alert.id } })
    ).json.matches;
    expect(gone).toMatchObject({ title: null, moments: [] });
  });
});

describe("a query of common words only", () => {
  it("is refused like one that could match everything; a common word beside a rare one is not", async () => {
    const alice = await createCaller(db);
    for (const query of ["the of and", "The OF and", "is it the", '"of the"']) {
      const refused = await callRoute(r.alerts, "/v1/alerts", {
        headers: alice.headers,
        body: { query, scope: { kind: "library" } },
      });
      expect(refused.status, query).toBe(422);
      expect(JSON.stringify(refused.json.detail), query).toMatch(/stop word|common words/);
    }
    await save(alice.headers, { query: "the lighthouse", scope: { kind: "library" } });
    await save(alice.headers, { query: "war", scope: { kind: "library" } });
  });
});
