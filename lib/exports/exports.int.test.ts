import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { createCaller, createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript, videoIds } from "@/test/publishing";
import { callRoute, handRequest } from "@/test/request";
import { NextRequest } from "next/server";

// POST /v1/exports through its route handler on PostgreSQL: what each selection holds, that nothing outside the
// caller's library is ever exported (or told apart from what does not exist), and the bounds.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let route: typeof import("@/app/v1/exports/route").POST;
const nextVideo = videoIds("ex");

beforeAll(async () => {
  process.env.APP_URL = "http://localhost:3000";
  process.env.EXPORT_MAX_NOTES = "6";
  process.env.EXPORT_MAX_IDS = "4";
  ctx = await useTestDatabase();
  route = (await import("@/app/v1/exports/route")).POST;
});
afterAll(async () => ctx?.teardown());

/** POST /v1/exports with `body`, the answer's bytes unread as text. */
async function exportOf(headers: Record<string, string>, body: unknown) {
  const request = new NextRequest("http://localhost:3000/v1/exports", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const response = await handRequest(route, request);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: () => strFromU8(bytes) };
}

function frontMatterOf(note: string): Record<string, unknown> {
  return parseYaml(/^---\n([\s\S]*?\n)---\n/.exec(note)![1]!, { version: "1.1" }) as Record<string, unknown>;
}

async function library(count: number, userId: string, platform = "youtube") {
  const out = [];
  for (let i = 0; i < count; i++) {
    const videoId = nextVideo();
    out.push(
      await seedTranscript(ctx.db, userId, {
        platform,
        videoId,
        title: `Talk ${i}: ${platform}`,
        sourceUrl:
          platform === "youtube" ? `https://www.youtube.com/watch?v=${videoId}` : `https://example.com/${videoId}.mp3`,
      }),
    );
  }
  return out;
}

describe("POST /v1/exports", () => {
  it("answers one transcript named by id as its note, under a name safe everywhere", async () => {
    const caller = await createCaller(ctx.db);
    const [talk] = await library(1, caller.userId);
    const res = await exportOf(caller.headers, { ids: [talk!.id] });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Talk 0 youtube \([a-z2-7]{10}\)\.md"/,
    );
    expect(res.headers.get("x-export-count")).toBe("1");
    const note = res.text();
    expect(frontMatterOf(note)).toMatchObject({ title: "Talk 0: youtube", verbatim_id: talk!.id, platform: "youtube" });
    expect(note).toContain(`](https://www.youtube.com/watch?v=${talk!.videoId}&t=`);
  });

  it("answers many as a zip whose names and notes are the same on the next export", async () => {
    const caller = await createCaller(ctx.db);
    const talks = await library(3, caller.userId);
    const first = await exportOf(caller.headers, { ids: talks.map((t) => t.id) });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/zip");
    expect(first.headers.get("x-export-count")).toBe("3");
    const files = unzipSync(first.bytes);
    expect(Object.keys(files).sort()).toEqual(
      ["Talk 0 youtube", "Talk 1 youtube", "Talk 2 youtube"].map((stem) =>
        expect.stringMatching(new RegExp(`^${stem} \\([a-z2-7]{10}\\)\\.md$`)),
      ),
    );
    const again = unzipSync((await exportOf(caller.headers, { library: true })).bytes);
    expect(Object.keys(again).sort()).toEqual(Object.keys(files).sort());
    for (const name of Object.keys(files)) expect(strFromU8(again[name]!)).toBe(strFromU8(files[name]!));
    // One transcript as a zip when asked.
    const one = await exportOf(caller.headers, { ids: [talks[0]!.id], zip: true });
    expect(Object.keys(unzipSync(one.bytes))).toHaveLength(1);
  });

  it("exports the caller's own correction of a transcript, not the original", async () => {
    const caller = await createCaller(ctx.db);
    const [talk] = await library(1, caller.userId);
    await ctx.db.transcriptRevision.create({
      data: {
        userId: caller.userId,
        transcriptId: talk!.id,
        segments: [{ start: 0, end: 3, text: "A corrected first line." }],
        sizeBytes: 60,
      },
    });
    const note = (await exportOf(caller.headers, { ids: [talk!.id] })).text();
    expect(note).toContain("A corrected first line.");
    // Nobody else sees it: another reader of the same transcript exports the original.
    const other = await createCaller(ctx.db);
    await seedTranscript(ctx.db, other.userId, { videoId: talk!.videoId });
    const theirs = (await exportOf(other.headers, { ids: [talk!.id] })).text();
    expect(theirs).not.toContain("A corrected first line.");
  });

  it("selects by History's filters, a followed show, a search, or the whole library", async () => {
    const caller = await createCaller(ctx.db);
    const videos = await library(2, caller.userId, "youtube");
    const episodes = await library(2, caller.userId, "podcast");
    const names = async (body: unknown) => {
      const res = await exportOf(caller.headers, body);
      expect(res.status, res.text()).toBe(200);
      return Object.values(unzipSync(res.bytes))
        .map((bytes) => frontMatterOf(strFromU8(bytes)).verbatim_id)
        .sort();
    };
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
    expect(await names({ history: { platform: "podcast" } })).toEqual(ids(episodes));
    expect(await names({ history: { q: "TALK 1" } })).toEqual(ids([videos[1]!, episodes[1]!]));
    expect(await names({ library: true })).toEqual(ids([...videos, ...episodes]));

    const follow = await ctx.db.follow.create({
      data: { userId: caller.userId, url: "https://example.com/feed.xml", kind: "feed", title: "A show" },
    });
    await ctx.db.followItem.createMany({
      data: episodes.map((episode, i) => ({
        followId: follow.id,
        guid: `g${i}`,
        title: `Episode ${i}`,
        url: `https://example.com/${i}.mp3`,
        status: "done",
        transcriptId: episode.id,
      })),
    });
    expect(await names({ follow_id: follow.id })).toEqual(ids(episodes));

    expect(await names({ search: { q: "grit", mode: "keyword" } })).toEqual(ids([...videos, ...episodes]));
  });

  it("never exports what the caller cannot read, and says so as it says an id does not exist", async () => {
    const owner = await createCaller(ctx.db);
    const [theirs] = await library(1, owner.userId);
    const stranger = await createCaller(ctx.db);
    const [mine] = await library(1, stranger.userId);

    const other = await exportOf(stranger.headers, { ids: [theirs!.id] });
    const unknown = await exportOf(stranger.headers, { ids: ["cm9nosuchtranscript000000"] });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text())).toEqual(JSON.parse(unknown.text()));
    expect(JSON.parse(other.text())).toMatchObject({ code: "not_found" });

    const mixed = await exportOf(stranger.headers, { ids: [mine!.id, theirs!.id] });
    expect(mixed.status).toBe(404);
    expect(mixed.text()).not.toContain(theirs!.id);

    const follow = await ctx.db.follow.create({
      data: { userId: owner.userId, url: "https://example.com/feed.xml", kind: "feed" },
    });
    expect((await exportOf(stranger.headers, { follow_id: follow.id })).status).toBe(404);

    // A failed or running entry holds nothing to export; neither does an empty library.
    const empty = await createCaller(ctx.db);
    await seedTranscript(ctx.db, empty.userId, { videoId: nextVideo(), state: "in_progress" });
    expect((await exportOf(empty.headers, { library: true })).status).toBe(404);
  });

  it("refuses malformed selections with a 422 in the contract's shape", async () => {
    const caller = await createCaller(ctx.db);
    const bodies: unknown[] = [
      {},
      { ids: [] },
      { ids: ["../../etc/passwd"] },
      { ids: ["a\u0000b"] },
      { ids: ["x".repeat(65)] },
      { ids: "cm9abc" },
      { ids: ["a"], library: true },
      { library: false },
      { library: true, format: "pdf" },
      { library: true, extra: 1 },
      { history: { q: "" } },
      { history: { q: "a\u0000" } },
      { history: { platform: "myspace" } },
      { search: { q: "" } },
      { follow_id: "" },
      { ids: ["a", "b", "c", "d", "e"] },
    ];
    for (const body of bodies) {
      const res = await exportOf(caller.headers, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const answer = JSON.parse(res.text()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      expect(answer.detail.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    const notJson = await callRoute(route, "/v1/exports", { method: "POST", headers: caller.headers, body: "{ids:" });
    expect(notJson.status).toBe(422);
  });

  it("refuses a selection larger than one export holds, or a body larger than any selection needs (413)", async () => {
    const caller = await createCaller(ctx.db);
    await library(7, caller.userId);
    const res = await exportOf(caller.headers, { library: true });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text())).toMatchObject({ code: "export_too_large" });
    expect((await exportOf(caller.headers, { history: { q: "talk 1" } })).status).toBe(200);
    // A body past what any selection needs is refused before it is parsed.
    const huge = await exportOf(caller.headers, {
      ids: Array.from({ length: 20_000 }, (_, i) => `id${i}`.padEnd(60, "x")),
    });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.text())).toMatchObject({ code: "payload_too_large" });
  });

  it("is open to a connector's and a device login's token, as reading a transcript is, and to nobody without one", async () => {
    const user = await createUser(ctx.db);
    const [talk] = await library(1, user.id);
    const { issueTokens } = await import("@/lib/oauth/issue-tokens");
    const { apiResource } = await import("@/lib/oauth/config");
    const clientId = `client-${user.id}`;
    await ctx.db.oAuthClient.create({
      data: { id: clientId, name: "Connector", redirectUris: ["https://connector.example/cb"] },
    });
    const tokens = await ctx.db.$transaction((tx) =>
      issueTokens(tx, { userId: user.id, clientId, scope: "api", resource: apiResource(), deviceLabel: null }),
    );
    const res = await exportOf({ authorization: `Bearer ${tokens.access_token}` }, { ids: [talk!.id] });
    expect(res.status).toBe(200);
    expect((await exportOf({}, { ids: [talk!.id] })).status).toBe(401);
    expect((await exportOf({ authorization: "Bearer vb_nope" }, { ids: [talk!.id] })).status).toBe(401);
  });
});
