import { readFileSync } from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startImportWorld, type ImportWorld } from "@/test/imports";
import { callRoute } from "@/test/request";

// An episode answered from the publisher's own transcript (the real Podcasting 2.0 example feed: episode 3
// publishes a Spanish WebVTT) is named as its feed names it: in the history, GET /v1/transcripts/{id}, the
// public page's slug and title. Entries stored before, without a title, get it back from the import's
// item by the migration, with nothing fetched again.

let world: ImportWorld;
let routes: {
  importStart: typeof import("@/app/v1/import/route").POST;
  importGet: typeof import("@/app/v1/import/[batch_id]/route").GET;
  history: typeof import("@/app/v1/me/transcriptions/route").GET;
  transcript: typeof import("@/app/v1/transcripts/[id]/route").GET;
  publish: typeof import("@/app/v1/publish/route").POST;
  publicGet: typeof import("@/app/v1/public/[slug]/route").GET;
};

interface Entry {
  title: string | null;
  status: string;
  source_url: string | null;
  transcript_id: string | null;
}

beforeAll(async () => {
  world = await startImportWorld("episode-titles");
  routes = {
    importStart: (await import("@/app/v1/import/route")).POST,
    importGet: (await import("@/app/v1/import/[batch_id]/route")).GET,
    history: (await import("@/app/v1/me/transcriptions/route")).GET,
    transcript: (await import("@/app/v1/transcripts/[id]/route")).GET,
    publish: (await import("@/app/v1/publish/route")).POST,
    publicGet: (await import("@/app/v1/public/[slug]/route")).GET,
  };
});

afterAll(async () => {
  await world?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen`);
}

async function importFeed(headers: Record<string, string>): Promise<void> {
  const started = await callRoute(routes.importStart, "/v1/import", {
    headers,
    body: { url: `${world.podcasts.origin}/feeds/podcastindex-example.xml`, lang: "es" },
  });
  expect(started.status).toBe(200);
  const id = (started.json as { batch_id: string }).batch_id;
  await until(
    async () =>
      (await callRoute(routes.importGet, `/v1/import/${id}`, { headers, params: { batch_id: id } })).json as {
        status: string;
      },
    (batch) => ["done", "partial", "error"].includes(batch.status),
    "the import",
  );
}

async function publishedEpisode(headers: Record<string, string>): Promise<Entry> {
  const res = await callRoute(routes.history, "/v1/me/transcriptions", { headers });
  expect(res.status).toBe(200);
  const entries = (res.json as { transcriptions: Entry[] }).transcriptions;
  // Episode 3 publishes its own (Spanish) file; the others are recognised.
  const fromFeed = entries.filter((e) => e.source_url?.endsWith("/ex/file-03.mp3"));
  expect(fromFeed).toHaveLength(1);
  return fromFeed[0]!;
}

describe("an episode is named as its feed names it", () => {
  it("history, GET transcript and the published page's slug and title carry the episode's title", async () => {
    const { headers } = await world.caller();
    await importFeed(headers);
    const entry = await publishedEpisode(headers);
    expect(entry.title).toBe("Episode 3 - The Future");

    const got = await callRoute(routes.transcript, `/v1/transcripts/${entry.transcript_id}`, {
      headers,
      params: { id: entry.transcript_id! },
    });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ title: "Episode 3 - The Future", channel: "Podcasting 2.0 Namespace Example" });

    const published = await callRoute(routes.publish, "/v1/publish", {
      headers,
      body: { url: entry.source_url, lang: "es" },
    });
    expect(published.status).toBe(200);
    const slug = (published.json as { slug: string }).slug;
    expect(slug).toMatch(/^episode-3-the-future-[a-z0-9]{6}$/);
    const page = await callRoute(routes.publicGet, `/v1/public/${slug}`, { params: { slug } });
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ title: "Episode 3 - The Future" });
  });

  it("an entry stored untitled gets its title back from the import's item by the migration, without a fetch", async () => {
    const { headers } = await world.caller();
    await importFeed(headers);
    const entry = await publishedEpisode(headers);
    await world.ctx.db.transcript.update({
      where: { id: entry.transcript_id! },
      data: { title: null, channel: null },
    });
    expect((await publishedEpisode(headers)).title).toBeNull();

    const fetched = world.podcasts.requests.length;
    const sql = readFileSync(path.resolve("prisma/migrations/20261127104500_episode_titles/migration.sql"), "utf8");
    for (const statement of sql.split(/;\s*$/m).filter((s) => s.replace(/--.*$/gm, "").trim()))
      await world.ctx.db.$executeRawUnsafe(statement);
    expect((await publishedEpisode(headers)).title).toBe("Episode 3 - The Future");
    const row = await world.ctx.db.transcript.findUnique({ where: { id: entry.transcript_id! } });
    expect(row?.channel).toBe("Podcasting 2.0 Namespace Example");
    expect(world.podcasts.requests.length).toBe(fetched);
  });
});
