// Full-text search over real caption tracks (TED "Grit" in English, mempool's promo in Chinese) on
// PostgreSQL, through the route handlers: what is found and where, stemming, phrases, exclusion, who sees
// what, and hostile queries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { gritTrack, mempoolChineseTrack, storeTranscript, type Segments } from "@/test/search";
import type { SearchMoment, SearchResponse } from "@/lib/search/schemas";

const APP_URL = "https://verbatim.example";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let meSearch: typeof import("@/app/v1/me/search/route").GET;
let publicSearch: typeof import("@/app/v1/public/search/route").GET;
let publishRoute: typeof import("@/app/v1/publish/route").POST;
let unpublishRoute: typeof import("@/app/v1/publish/[slug]/route").DELETE;
let deleteEntryRoute: typeof import("@/app/v1/me/transcriptions/[id]/route").DELETE;
let owner: Awaited<ReturnType<typeof createCaller>>;
let stranger: Awaited<ReturnType<typeof createCaller>>;
let grit: { id: string; videoId: string; segments: Segments };
let chinese: { id: string; segments: Segments };

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  meSearch = (await import("@/app/v1/me/search/route")).GET;
  publicSearch = (await import("@/app/v1/public/search/route")).GET;
  publishRoute = (await import("@/app/v1/publish/route")).POST;
  unpublishRoute = (await import("@/app/v1/publish/[slug]/route")).DELETE;
  deleteEntryRoute = (await import("@/app/v1/me/transcriptions/[id]/route")).DELETE;
  owner = await createCaller(ctx.db);
  stranger = await createCaller(ctx.db);
  const g = await storeTranscript(ctx.db, {
    segments: gritTrack(),
    lang: "en",
    title: "Grit",
    userIds: [owner.userId],
  });
  grit = { id: g.transcript.id, videoId: g.transcript.videoId, segments: gritTrack() };
  const c = await storeTranscript(ctx.db, {
    segments: mempoolChineseTrack(),
    lang: "zh",
    title: "mempool 宣传片",
    userIds: [owner.userId],
  });
  chinese = { id: c.transcript.id, segments: mempoolChineseTrack() };
});
afterAll(async () => ctx?.teardown());

async function search(q: string, extra: Record<string, string> = {}, caller = owner) {
  const query = new URLSearchParams({ q, ...extra }).toString();
  return callRoute(meSearch, `/v1/me/search?${query}`, { headers: caller.headers });
}

async function publicQuery(q: string) {
  return callRoute(publicSearch, `/v1/public/search?${new URLSearchParams({ q }).toString()}`, {});
}

async function moments(q: string, extra: Record<string, string> = {}, caller = owner): Promise<SearchMoment[]> {
  const res = await search(q, extra, caller);
  expect(res.status, res.text).toBe(200);
  return (res.json as SearchResponse).results;
}

const highlighted = (m: SearchMoment) => m.highlights.map(([a, b]) => m.snippet.slice(a, b));

describe("GET /v1/me/search on real English captions", () => {
  it("finds a known phrase at its segment's timestamps, with context, marks and deep links", async () => {
    const found = await moments("marathon");
    expect(found).toHaveLength(1);
    const [m] = found;
    // Segment 60 of the talk: "Grit is living life like it's a marathon, not a sprint." (202.969–207.238 s)
    expect(m).toMatchObject({
      transcript_id: grit.id,
      title: "Grit",
      platform: "youtube",
      lang: "en",
      start: 202.969,
      end: 207.238,
      segment_index: 60,
    });
    expect(grit.segments[m!.segment_index]!.text).toContain("marathon");
    expect(m!.context.start).toBeLessThanOrEqual(m!.start);
    expect(m!.context.end).toBeGreaterThanOrEqual(m!.end);
    expect(m!.context.text).toContain("Grit is living life like it's a marathon, not a sprint.");
    expect(highlighted(m!)).toEqual(["marathon"]);
    expect(m!.links.source).toBe(`https://www.youtube.com/watch?v=${grit.videoId}&t=202s`);
    expect(m!.links.viewer).toBe(`${APP_URL}/dashboard?transcript=${grit.id}&t=202.969`);
    expect(m!.links.page).toBeNull();
  });

  it("stems by the transcript's language: 'persevere' finds 'perseverance', 'sticks' finds 'sticking', 'talents' finds 'talented'", async () => {
    const persevere = await moments("persevere");
    expect(persevere.map((m) => m.start).sort((a, b) => a - b)).toEqual([181.899, 319.44]);
    expect(persevere.flatMap(highlighted).sort()).toEqual(["perseverance", "persevere"]);
    const sticks = await moments("sticks");
    expect(sticks.map((m) => m.start)).toEqual([189.232]);
    expect(sticks.flatMap(highlighted)).toEqual(["sticking"]);
    const talents = await moments("talents");
    expect(talents.flatMap(highlighted)).toEqual(expect.arrayContaining(["talent", "talented"]));
  });

  it("matches a quoted phrase only in order, and excludes a -word", async () => {
    const phrase = await moments('"growth mindset"');
    expect(phrase.map((m) => m.start).sort((a, b) => a - b)).toEqual([296.584, 329.052]);
    expect(await moments('"mindset growth"')).toEqual([]);
    expect((await moments("mindset growth")).length).toBe(2);

    const gritMoments = await moments("grit");
    expect(gritMoments).toHaveLength(3); // capped per transcript
    const withoutChicago = await moments("grit -chicago");
    expect(withoutChicago.length).toBeGreaterThan(0);
    for (const m of withoutChicago) expect(m.context.text.toLowerCase()).not.toContain("chicago");
    expect((await moments("chicago")).every((m) => m.context.text.includes("Chicago"))).toBe(true);
    expect(await moments("chicago -grit")).toEqual([]);
  });

  it("ORs words, filters by platform and language, and pages with the cursor", async () => {
    const either = await moments("marathon OR stratospheric");
    expect(either.map((m) => m.start).sort((a, b) => a - b)).toEqual([45.017, 202.969]);
    expect(await moments("marathon", { platform: "vimeo" })).toEqual([]);
    expect(await moments("marathon", { lang: "de" })).toEqual([]);
    expect(await moments("marathon", { lang: "en" })).toHaveLength(1);

    const first = await search("grit", { limit: "2" });
    const page1 = first.json as SearchResponse;
    expect(page1.results).toHaveLength(2);
    expect(page1.next_cursor).toEqual(expect.any(String));
    const page2 = (await search("grit", { limit: "2", cursor: page1.next_cursor! })).json as SearchResponse;
    expect(page2.results).toHaveLength(1);
    expect(page2.next_cursor).toBeNull();
    const starts = [...page1.results, ...page2.results].map((m) => m.start);
    expect(new Set(starts).size).toBe(3);
  });
});

describe("GET /v1/me/search on real Chinese captions (CJK bigrams)", () => {
  it("finds words inside runs without spaces, at the right segment, marked", async () => {
    const lightning = await moments("闪电网络");
    expect(lightning.map((m) => m.start).sort((a, b) => a - b)).toEqual([39.35, 113.626]);
    for (const m of lightning) expect(highlighted(m)).toContain("闪电网络");
    // "内存池" stands inside the run "我们为您提供简洁明了的内存池面板" (segment 2).
    const mempool = await moments("内存池", { lang: "zh" });
    expect(mempool.map((m) => m.segment_index)).toEqual([2]);
    expect(await moments('"节点比特币"')).toEqual([]);
    expect((await moments("比特币 -闪电")).every((m) => !m.context.text.includes("闪电"))).toBe(true);
  });

  it("every two- to four-character substring of the track is found exactly where it is (bigram recall and precision)", async () => {
    const texts = chinese.segments.map((s) => s.text);
    const runs = texts.flatMap((t) => t.match(/[\u4e00-\u9fff]+/g) ?? []);
    const samples = new Set<string>();
    for (const run of runs)
      for (const n of [2, 3, 4]) for (let i = 0; i + n <= run.length; i += 8) samples.add(run.slice(i, i + n));
    expect(samples.size).toBeGreaterThan(50);
    for (const sample of samples) {
      const found = await moments(sample, { lang: "zh" });
      expect(found.length, sample).toBeGreaterThan(0);
      for (const m of found) {
        expect(texts[m.segment_index], sample).toContain(sample);
        expect(highlighted(m), sample).toContain(sample);
      }
    }
    // Pairs of characters that never stand together: nothing.
    for (const absent of ["网比", "池闪", "节矿"]) {
      expect(texts.join("").includes(absent)).toBe(false);
      expect(await moments(absent)).toEqual([]);
    }
  });
});

describe("a transcript's three moments", () => {
  it("are three places: a passage beside a better one of its transcript comes after the others", async () => {
    const filler =
      "while the jars stood in rows along the cold shelf and the kitchen warmed slowly in the morning light";
    const said = (times: number) => `${"marmalade on the table ".repeat(times)}${filler} ${filler}`;
    const texts = [said(3), said(3), `${filler} ${filler}`, said(1), `${filler} ${filler}`, said(1)];
    const { transcript } = await storeTranscript(ctx.db, {
      segments: texts.map((text, i) => ({ start: i * 20, end: i * 20 + 19, text })),
      lang: "en",
      title: "Breakfast",
      userIds: [owner.userId],
    });
    const found = (await moments("marmalade")).filter((m) => m.transcript_id === transcript.id);
    const places = found.map((m) => m.segment_index).sort();
    // The two side by side are one spot: the better stands for both, and the places said once follow it.
    expect(places).toHaveLength(3);
    expect(places.filter((i) => i <= 1)).toHaveLength(1);
    expect(places.slice(1)).toEqual([3, 5]);
  });
});

describe("who sees what", () => {
  it("never shows another user's transcripts", async () => {
    expect(await moments("marathon", {}, stranger)).toEqual([]);
    expect(await moments("闪电网络", {}, stranger)).toEqual([]);
  });

  it("a deleted history entry vanishes from the user's search at once; the shared transcript stays for others", async () => {
    const user = await createCaller(ctx.db);
    const other = await createCaller(ctx.db);
    const { entries } = await storeTranscript(ctx.db, {
      segments: gritTrack(),
      lang: "en",
      title: "Grit again",
      userIds: [user.userId, other.userId],
    });
    expect(await moments("marathon", {}, user)).toHaveLength(1);
    const res = await callRoute(deleteEntryRoute, `/v1/me/transcriptions/${entries[0]!.id}`, {
      method: "DELETE",
      headers: user.headers,
      params: { id: entries[0]!.id },
    });
    expect(res.status).toBe(204);
    expect(await moments("marathon", {}, user)).toEqual([]);
    expect(await moments("marathon", {}, other)).toHaveLength(1);
  });

  it("a replaced transcript is searched by its new text", async () => {
    const user = await createCaller(ctx.db);
    const { transcript } = await storeTranscript(ctx.db, {
      segments: [{ start: 1, end: 2, text: "an old sentence about zeppelins" }],
      lang: "en",
      title: "Replaced",
      userIds: [user.userId],
    });
    expect(await moments("zeppelin", {}, user)).toHaveLength(1);
    await ctx.db.transcript.update({
      where: { id: transcript.id },
      data: { segments: [{ start: 5, end: 6, text: "a new sentence about submarines" }] },
    });
    expect(await moments("zeppelin", {}, user)).toEqual([]);
    expect((await moments("submarines", {}, user)).map((m) => m.start)).toEqual([5]);
  });
});

describe("GET /v1/public/search", () => {
  const publicMoments = async (q: string) => {
    const res = await callRoute(publicSearch, `/v1/public/search?${new URLSearchParams({ q })}`);
    expect(res.status, res.text).toBe(200);
    return (res.json as SearchResponse).results;
  };

  it("finds published transcripts without credentials, links to /t/{slug}, and loses them at once when unpublished", async () => {
    const publisher = await createCaller(ctx.db);
    const { transcript } = await storeTranscript(ctx.db, {
      segments: [{ start: 12.5, end: 15, text: "The lighthouse keeper counted every ship" }],
      lang: "en",
      title: "Lighthouse",
      userIds: [publisher.userId],
    });
    expect(await publicMoments("lighthouse keepers")).toEqual([]);
    const published = await callRoute(publishRoute, "/v1/publish", {
      method: "POST",
      headers: publisher.headers,
      body: { url: transcript.sourceUrl, lang: "en" },
    });
    expect(published.status, published.text).toBe(200);
    const { slug } = published.json as { slug: string };
    const found = await publicMoments("lighthouse keepers");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      transcript_id: transcript.id,
      slug,
      start: 12.5,
      links: { page: `${APP_URL}/t/${slug}#t12-0`, viewer: null },
    });
    // Not in the public search: the owner's unpublished transcripts.
    expect(await publicMoments("marathon")).toEqual([]);

    const gone = await callRoute(unpublishRoute, `/v1/publish/${slug}`, {
      method: "DELETE",
      headers: publisher.headers,
      params: { slug },
    });
    expect(gone.status).toBe(204);
    expect(await publicMoments("lighthouse keepers")).toEqual([]);
  });
});

describe("hostile queries: 200 with results or none, or 422, never 500 (library and public search alike)", () => {
  const cases: [string, string, number][] = [
    ["huge", "grit ".repeat(2000), 422],
    ["empty", "   ", 422],
    ["NUL", "grit\u0000", 422],
    ["unbalanced quotes", '"grit is', 200],
    ["only quotes", '"""', 422],
    ["only stop words", "the of and is", 200],
    ["regex-like", ".*[a-z]+\\d(?=x)|^$", 200],
    ["tsquery operators", "!grit & (marathon | <-> :* ) 'x'", 200],
    ["lone minus and OR", "- OR -", 422],
    ["backslashes and semicolons", '\\\'; DROP TABLE "Transcript"; --', 200],
    ["a very long word", "x".repeat(499), 200],
    ["emoji and combining marks", "🏃‍♀️ e\u0301\u0301\u0301", 200],
    ["private-use marks", "\ue000grit\ue001", 200],
    // websearch_to_tsquery stacks a NOT per "-" and fails past 32 ("tsquery stack too small").
    ["33 minus signs", "-".repeat(33), 422],
    ["'- ' forty times", "- ".repeat(40), 422],
    ["a word, then 40 minus signs", `grit ${"-".repeat(40)}`, 200],
    ["40 minus signs, then a word", `${"-".repeat(40)}grit marathon`, 200],
    ["minus signs between punctuation", `grit ${"-!".repeat(40)}`, 200],
    ["minus signs between parentheses and operators", `grit ${"-(&|<".repeat(40)} x`, 200],
    ["minus signs between quotes", `grit ${'-"'.repeat(40)}`, 200],
    // Nothing to find: every passage would match.
    ["only excluded words (125 × -zz)", " -zz".repeat(125), 422],
    ["a word OR an excluded word", "grit OR -zz", 422],
    ["more words than allowed", Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "), 422],
  ];
  for (const [name, q, status] of cases) {
    it(name, async () => {
      for (const res of [await search(q), await publicQuery(q)]) {
        expect(res.status, res.text).toBe(status);
        if (status === 422) {
          const detail = (res.json as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
          expect(detail[0]).toMatchObject({ loc: ["query", "q"], msg: expect.any(String), type: expect.any(String) });
        } else expect(Array.isArray((res.json as SearchResponse).results)).toBe(true);
      }
    });
  }

  it("finds what the words find, however many minus signs stand around them", async () => {
    expect((await moments(`marathon ${"-".repeat(40)}`)).map((m) => m.start)).toEqual([202.969]);
    expect((await moments(`marathon ${"- -!".repeat(40)}sprint`)).map((m) => m.start)).toEqual([]);
    // Many minus signs before the only word: it is excluded, so there is nothing to find.
    expect((await search(`${"- ".repeat(40)}marathon`)).status).toBe(422);
  });

  it("a stop word and an excluded word: nothing the English configuration can look up (422)", async () => {
    const english = await search("the -zz", { lang: "en" });
    expect(english.status, english.text).toBe(422);
    expect(english.text).toContain("at least one word to find");
  });

  it("bad limit and cursor → 422", async () => {
    expect((await search("grit", { limit: "0" })).status).toBe(422);
    expect((await search("grit", { limit: "51" })).status).toBe(422);
    expect((await search("grit", { cursor: "nonsense!" })).status).toBe(422);
    expect((await search("grit", { cursor: Buffer.from("o:-5").toString("base64url") })).status).toBe(422);
    expect((await search("grit", { lang: "not a language" })).status).toBe(422);
  });

  it("only stop words and a lone stop word find nothing", async () => {
    expect(await moments("the of and is")).toEqual([]);
  });
});

describe("a giant segment (a recogniser's answer in one piece)", () => {
  it("answers a bounded context.text and snippet, in the library and the public search", async () => {
    const giant = `${"lorem ipsum dolor sit amet ".repeat(3000)}the zeppelinium moment ${"consectetur adipiscing ".repeat(3000)}`;
    expect(giant.length).toBeGreaterThan(150_000);
    const { transcript } = await storeTranscript(ctx.db, {
      segments: [
        { start: 0, end: 5, text: "Opening words." },
        { start: 5, end: 3600, text: giant },
      ],
      lang: "en",
      title: "Giant",
      userIds: [owner.userId],
    });
    await ctx.db.publication.create({
      data: {
        slug: `giant-${transcript.id}`,
        userId: owner.userId,
        transcriptId: transcript.id,
        publishedAt: new Date(),
      },
    });
    const library = await moments("zeppelinium");
    const publicRes = await publicQuery("zeppelinium");
    expect(publicRes.status, publicRes.text).toBe(200);
    for (const found of [library, (publicRes.json as SearchResponse).results]) {
      expect(found).toHaveLength(1);
      const [m] = found;
      expect(m!.context.text.length).toBeLessThanOrEqual(1_002);
      expect(m!.context.text).toContain("the zeppelinium moment");
      expect(m!.snippet.length).toBeLessThanOrEqual(302);
      expect(highlighted(m!)).toEqual(["zeppelinium"]);
      expect(m!.segment_index).toBe(1);
    }
  });
});

describe("the index itself", () => {
  it("uses the same language → configuration table as the TypeScript side", async () => {
    const { CONFIGURED_LANGUAGES, searchConfig } = await import("@/lib/search/config");
    const langs = [...CONFIGURED_LANGUAGES, "pt-BR", "zh-Hans", "ja", "EN_gb", "xx", ""];
    const rows = await ctx.db.$queryRawUnsafe<{ lang: string; config: string }[]>(
      `SELECT lang, verbatim_search_config(lang) AS config FROM unnest($1::text[]) AS lang`,
      langs,
    );
    for (const row of rows) expect(row.config, row.lang).toBe(searchConfig(row.lang));
  });

  it("makes the same CJK bigrams as the query side", async () => {
    const { cjkBigrams } = await import("@/lib/search/cjk");
    const text = "欢迎来到开源项目 mempool 比 ひらがな 한국어";
    const [row] = await ctx.db.$queryRawUnsafe<{ b: string }[]>(`SELECT verbatim_cjk_bigrams($1) AS b`, text);
    const expected = (text.match(/[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]+/g) ?? []).flatMap(cjkBigrams).join(" ");
    expect(row!.b).toBe(expected);
  });
});
