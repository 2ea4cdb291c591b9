// Long CJK runs in a query on PostgreSQL, through the public search route: a run longer than the bigrams
// allowed for it (lib/search/cjk.ts, CJK_MAX_BIGRAMS) is still found where it stands, and a run differing in
// a character the thinned phrase pins is not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { mempoolChineseTrack, storeTranscript } from "@/test/search";
import { CJK_MAX_BIGRAMS, runBigrams } from "@/lib/search/cjk";
import type { SearchResponse } from "@/lib/search/schemas";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let publicSearch: typeof import("@/app/v1/public/search/route").GET;
// The real track's Chinese characters end to end: a 160-character run in one segment.
const RUN = [
  ...mempoolChineseTrack()
    .flatMap((s) => s.text.match(/[\u4e00-\u9fff]+/g) ?? [])
    .join(""),
]
  .slice(0, 160)
  .join("");

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  publicSearch = (await import("@/app/v1/public/search/route")).GET;
  const owner = await createCaller(ctx.db);
  const { transcript } = await storeTranscript(ctx.db, {
    segments: [
      { start: 0, end: 5, text: "开场" },
      { start: 5, end: 30, text: RUN },
    ],
    lang: "zh",
    title: "长句",
    userIds: [owner.userId],
  });
  await ctx.db.publication.create({
    data: { slug: "long-run", userId: owner.userId, transcriptId: transcript.id, publishedAt: new Date() },
  });
});
afterAll(async () => ctx?.teardown());

async function found(q: string): Promise<number[]> {
  const res = await callRoute(publicSearch, `/v1/public/search?${new URLSearchParams({ q })}`, {});
  expect(res.status, res.text).toBe(200);
  return (res.json as SearchResponse).results.map((m) => m.segment_index);
}

/** `run` with the character at `at` replaced by one that does not occur in it. */
const changed = (run: string, at: number) => [...run].map((c, i) => (i === at ? "鑫" : c)).join("");

describe("a CJK run longer than its bigrams", () => {
  it("is found where it stands, however long (every second bigram pins every character up to 65)", async () => {
    for (const n of [20, 40, 60, 65, 100, 160]) expect(await found(RUN.slice(0, n)), String(n)).toEqual([1]);
    expect(await found(RUN.slice(37, 137))).toEqual([1]);
  });

  it("is not found when a character differs, anywhere in a run of up to 65 characters", async () => {
    const run = RUN.slice(10, 70);
    for (const at of [0, 1, 17, 30, 58, 59]) expect(await found(changed(run, at)), String(at)).toEqual([]);
  });

  it("is not found when a character the spread bigrams pin differs, in a longer run", async () => {
    const run = RUN.slice(0, 150);
    const pinned = runBigrams(run, CJK_MAX_BIGRAMS).flatMap((p) => [p.at, p.at + 1]);
    for (const at of [pinned[0]!, pinned[21]!, pinned.at(-1)!]) expect(await found(changed(run, at))).toEqual([]);
    // Nor when the run is cut short of what the transcript holds.
    expect(await found(RUN.slice(100, 160) + "鑫")).toEqual([]);
  });
});
