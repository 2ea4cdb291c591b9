import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import type { CaptionDeps } from "@/lib/transcripts/fetch-captions";
import type { ParsedSource } from "@/lib/sources";

// Cross-process coalescing of caption fetches. Each "process" is a fresh copy of the module graph
// (vi.resetModules), so each has its own in-process map and owner id and only the database is shared,
// as between two app processes. scale-out.faults.test.ts does the same with real processes.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
type FetchCaptions = typeof import("@/lib/transcripts/fetch-captions");
const processes: FetchCaptions[] = [];

const videos = {
  aaaaaaaaaaa: {
    title: "Shared",
    durationSeconds: 60,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
  bbbbbbbbbbb: {
    title: "French only",
    durationSeconds: 45,
    tracks: [{ lang: "fr", name: "French", kind: "manual" as const }],
  },
  ccccccccccc: {
    title: "Orphaned",
    durationSeconds: 30,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
};
const source = (videoId: string): ParsedSource =>
  ({ platform: "youtube", videoId, canonicalUrl: `https://www.youtube.com/watch?v=${videoId}` }) as ParsedSource;
const deps = (provider: StaticCaptionProvider): CaptionDeps => ({ providerFor: () => provider, cacheHours: 24 });

beforeAll(async () => {
  ctx = await useTestDatabase();
  for (let i = 0; i < 2; i++) {
    vi.resetModules();
    processes.push(await import("@/lib/transcripts/fetch-captions"));
  }
});
afterAll(async () => ctx?.teardown());

describe("caption fetches shared across processes", () => {
  it("N concurrent requests in two processes: one upstream fetch, everyone gets the transcript", async () => {
    const provider = new StaticCaptionProvider(videos, 400);
    const user = await createUser(ctx.db);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        processes[i % 2]!.getCaptionTranscript(user.id, source("aaaaaaaaaaa"), "en", deps(provider)),
      ),
    );
    expect(provider.infoCalls).toBe(1);
    expect(new Set(results.map((r) => (r.kind === "transcript" ? r.transcript.id : r.kind))).size).toBe(1);
    expect(results[0]).toMatchObject({ kind: "transcript" });
    expect(await ctx.db.captionFetch.count()).toBe(0);
  });

  it("no captions is handed to the requests waiting in the other process (no second upstream call)", async () => {
    const provider = new StaticCaptionProvider(videos, 400);
    const user = await createUser(ctx.db);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        processes[i % 2]!.getCaptionTranscript(user.id, source("bbbbbbbbbbb"), "en", deps(provider)),
      ),
    );
    expect(provider.infoCalls).toBe(1);
    for (const result of results)
      expect(result).toEqual({
        kind: "no_captions",
        info: {
          title: "French only",
          durationSeconds: 45,
          languages: [{ code: "fr", name: "French", kind: "manual" }],
        },
      });
  });

  it("a request that arrives after a no-captions answer asks upstream again", async () => {
    const provider = new StaticCaptionProvider(videos);
    const user = await createUser(ctx.db);
    for (const instance of [processes[1]!, processes[0]!]) {
      expect(await instance.getCaptionTranscript(user.id, source("bbbbbbbbbbb"), "de", deps(provider))).toMatchObject({
        kind: "no_captions",
      });
    }
    expect(provider.infoCalls).toBe(2);
  });

  it("a crashed owner's claim runs out and the next request takes over", async () => {
    const provider = new StaticCaptionProvider(videos);
    const user = await createUser(ctx.db);
    await ctx.db
      .$executeRaw`INSERT INTO "CaptionFetch" ("key", "owner", "expiresAt") VALUES ('youtube:ccccccccccc:en', 'dead-process', now() + interval '300 milliseconds')`;
    const result = await processes[0]!.getCaptionTranscript(user.id, source("ccccccccccc"), "en", deps(provider));
    expect(result).toMatchObject({ kind: "transcript", transcript: { title: "Orphaned" } });
    expect(provider.infoCalls).toBe(1);
  });
});
