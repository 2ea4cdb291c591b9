import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript, videoIds } from "@/test/publishing";
import { callRoute } from "@/test/request";

// The Publish button's plain form (POST /dashboard/publish), as a browser posts it before the page's scripts run:
// published with the signed-in session and sent back to the page (303) with the outcome; another site's form,
// and a person whose role may not publish, refused as the API refuses them, with nothing published.

const APP_URL = "http://localhost:3000";
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let route: typeof import("@/app/dashboard/publish/route").POST;
const newVideoId = videoIds("form");

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  route = (await import("@/app/dashboard/publish/route")).POST;
});
afterAll(async () => ctx?.teardown());

/** A browser session's cookie of `personId`, acting in `workspace` when given. */
async function sessionCookie(personId: string, workspace?: string): Promise<string> {
  const { startSession } = await import("@/lib/auth/sessions");
  const { authSecret } = await import("@/lib/auth/secret");
  const { WORKSPACE_COOKIE } = await import("@/lib/membership/workspace");
  const salt = "authjs.session-token";
  const sid = await startSession(personId);
  const cookie = `${salt}=${await encode({ token: { sub: personId, sid }, secret: authSecret(), salt })}`;
  return workspace ? `${cookie}; ${WORKSPACE_COOKIE}=${workspace}` : cookie;
}

function post(cookie: string, fields: Record<string, string>, origin: string | null = APP_URL) {
  return callRoute(route, "/dashboard/publish", {
    method: "POST",
    headers: {
      host: "localhost:3000",
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      ...(origin === null ? {} : { origin }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function publications(userId: string): Promise<number> {
  return ctx.db.publication.count({ where: { userId, publishedAt: { not: null } } });
}

describe("POST /dashboard/publish", () => {
  it("publishes the signed-in person's transcript and sends them back to the page with its slug", async () => {
    const person = await createUser(ctx.db);
    const videoId = newVideoId();
    const transcript = await seedTranscript(ctx.db, person.id, { videoId });
    const back = `/dashboard?transcript=${transcript.id}&published=old`;
    const res = await post(await sessionCookie(person.id), {
      url: `https://www.youtube.com/watch?v=${videoId}`,
      lang: "en",
      back,
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, APP_URL);
    const slug = (await ctx.db.publication.findFirstOrThrow({ where: { userId: person.id } })).slug;
    expect(location.pathname).toBe("/dashboard");
    expect(location.searchParams.get("transcript")).toBe(transcript.id);
    expect(location.searchParams.getAll("published")).toEqual([slug]);
  });

  it("comes back with the error's code when the API refuses the transcript, and only to this site's pages", async () => {
    const person = await createUser(ctx.db);
    const res = await post(await sessionCookie(person.id), {
      url: `https://www.youtube.com/watch?v=${newVideoId()}`,
      back: "https://evil.example/phish",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard?publish_error=not_found");
  });

  it("refuses another site's form, or one that says nowhere where it comes from: nothing is published", async () => {
    const person = await createUser(ctx.db);
    const videoId = newVideoId();
    await seedTranscript(ctx.db, person.id, { videoId });
    const cookie = await sessionCookie(person.id);
    const fields = { url: `https://www.youtube.com/watch?v=${videoId}` };
    for (const origin of ["https://evil.example", "null", null]) {
      const res = await post(cookie, fields, origin);
      expect(res.status, String(origin)).toBe(403);
      expect(res.json).toMatchObject({ code: "forbidden" });
    }
    expect(await publications(person.id)).toBe(0);
  });

  it("refuses a team's viewer with 403 as the API does, and publishes nothing of the team's", async () => {
    const team = await ctx.db.user.create({
      data: { kind: "team", name: "desk", slug: `desk-${Math.random().toString(36).slice(2, 8)}` },
    });
    const viewer = await createUser(ctx.db);
    await ctx.db.membership.create({ data: { teamId: team.id, userId: viewer.id, role: "viewer" } });
    const videoId = newVideoId();
    await seedTranscript(ctx.db, team.id, { videoId });
    const res = await post(await sessionCookie(viewer.id, team.id), {
      url: `https://www.youtube.com/watch?v=${videoId}`,
      back: "/dashboard",
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: "forbidden" });
    expect(await publications(team.id)).toBe(0);
  });

  it("refuses a form without a session", async () => {
    const res = await post("", { url: "https://www.youtube.com/watch?v=x" });
    expect(res.status).toBe(401);
  });
});
