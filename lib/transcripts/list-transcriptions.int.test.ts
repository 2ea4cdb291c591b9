// GET /v1/me/transcriptions's reads (docs/decisions/0007-reads-that-stay-flat-as-data-grows.md): the filter `q`
// served by the trigram index on the entry's searchText (kept by triggers), the total from HistoryCount (kept by a
// trigger), a page per sort index.
// Every page of every filter, sort and order is checked against the plain query the list used to run
// (Prisma's `contains`, `count`, ORDER BY sort, id), walking the pages one after another. A `q` takes one of
// two paths per page (pageIdsMatching): "mountain" (33 of the 45 entries) walks the sort's index for its first
// pages and sorts the matches for the later ones; "vid01" (10) and "zz" sort them on every page. Pages past the
// middle are read from the other end in the reverse order (nearerEnd), the last one partly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { transcriptionListQuerySchema } from "@/lib/transcripts/schemas";
import type { Prisma } from "@/lib/generated/prisma/client";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let listTranscriptions: typeof import("@/lib/transcripts/list-transcriptions").listTranscriptions;
let me: string;
let other: string;

const PLATFORMS = ["youtube", "upload", "podcast"] as const;
const STATES = ["done", "error", "in_progress"] as const;
const SORTS = { created_at: "createdAt", duration_seconds: "durationSeconds", total_seconds: "totalSeconds" } as const;

beforeAll(async () => {
  ctx = await useTestDatabase();
  ({ listTranscriptions } = await import("@/lib/transcripts/list-transcriptions"));
  me = (await createUser(ctx.db)).id;
  other = (await createUser(ctx.db)).id;
  const base = new Date("2026-01-01T00:00:00Z").getTime();
  for (let i = 0; i < 45; i++) {
    const transcript = await ctx.db.transcript.create({
      data: {
        platform: PLATFORMS[i % 3]!,
        videoId: `vid${String(i).padStart(3, "0")}`,
        lang: "en",
        origin: "captions",
        title: i % 4 === 0 ? `Ocean Talk ${i}` : `Mountain talk ${i}`,
        channel: i % 5 === 0 ? "Deep Sea Channel" : null,
        sourceUrl: `https://example.test/${i}`,
        segments: [],
      },
    });
    for (const userId of i % 3 === 0 ? [me, other] : [me]) {
      await ctx.db.transcription.create({
        data: {
          userId,
          platform: PLATFORMS[i % 3]!,
          videoId: `vid${String(i).padStart(3, "0")}`,
          lang: "en",
          origin: "captions",
          transcriptId: transcript.id,
          state: STATES[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0],
          title: i % 9 === 0 ? `50% off_${i}` : null,
          // Ties everywhere: the id decides.
          durationSeconds: (i % 5) * 60,
          totalSeconds: (i % 4) * 30,
          createdAt: new Date(base + Math.floor(i / 3) * 1000),
        },
      });
    }
  }
});
afterAll(async () => ctx?.teardown());

const list = (userId: string, query: Record<string, string | number>) =>
  listTranscriptions(userId, transcriptionListQuerySchema.parse(query));

/** The list as it used to be read: Prisma's contains (ILIKE) on each field, a count, ORDER BY sort, id. */
async function expected(userId: string, query: Record<string, string>) {
  const q = query.q;
  const where: Prisma.TranscriptionWhereInput = {
    userId,
    ...(q
      ? {
          OR: [
            { videoId: { contains: q, mode: "insensitive" } },
            { title: { contains: q, mode: "insensitive" } },
            { transcript: { title: { contains: q, mode: "insensitive" } } },
            { transcript: { channel: { contains: q, mode: "insensitive" } } },
          ],
        }
      : {}),
    ...(query.platform ? { platform: query.platform } : {}),
    ...(query.state ? { state: query.state } : {}),
  };
  const column = SORTS[(query.sort ?? "created_at") as keyof typeof SORTS];
  const order = (query.order ?? "desc") as "asc" | "desc";
  const rows = await ctx.db.transcription.findMany({
    where,
    orderBy: [{ [column]: order }, { id: order }],
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** Every page, `limit` at a time: the ids in order, and each page's total. */
async function walk(userId: string, query: Record<string, string>, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const page = await list(userId, { ...query, limit, offset });
    totals.add(page.total);
    ids.push(...page.transcriptions.map((t) => t.id));
    if (page.transcriptions.length < limit) break;
  }
  return { ids, totals: [...totals] };
}

describe("the history list", () => {
  it("pages every filter, sort and order as the plain query does, with its exact total on every page", async () => {
    const filters: Record<string, string>[] = [
      {},
      { q: "ocean" },
      { q: "OCEAN talk" },
      { q: "vid01" },
      { q: "deep sea" },
      { q: "mountain" },
      { q: "zz" },
      { q: "a" },
      { platform: "upload" },
      { state: "error" },
      { platform: "youtube", state: "done" },
      { q: "talk", state: "done", platform: "podcast" },
    ];
    for (const filter of filters)
      for (const sort of Object.keys(SORTS))
        for (const order of ["asc", "desc"]) {
          const query = { ...filter, sort, order };
          const want = await expected(me, query);
          const got = await walk(me, query, 7);
          expect(got.ids, JSON.stringify(query)).toEqual(want);
          expect(got.totals, JSON.stringify(query)).toEqual([want.length]);
        }
  });

  it("matches the caller's entries only, and takes % and _ literally", async () => {
    const mine = await list(me, { q: "ocean", limit: 100 });
    const theirs = await list(other, { q: "ocean", limit: 100 });
    expect(mine.total).toBe(12);
    expect(theirs.total).toBe(4);
    const theirIds = new Set((await ctx.db.transcription.findMany({ where: { userId: other } })).map((h) => h.id));
    expect(mine.transcriptions.some((t) => theirIds.has(t.id))).toBe(false);
    expect((await list(me, { q: "50%", limit: 100 })).total).toBe(5);
    expect((await list(me, { q: "off_9" })).transcriptions.map((t) => t.video_id)).toEqual(["vid009"]);
    expect((await list(me, { q: "%" })).total).toBe(5);
    expect((await list(me, { q: "o_f" })).total).toBe(0);
  });

  it("says which member added each entry of a team's history, and no one in a person's own", async () => {
    // `other` stands for a team account here: the entry names the member who asked (Transcription.actorId).
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: other, videoId: "vid003" } });
    await ctx.db.transcription.update({ where: { id: entry.id }, data: { actorId: me } });
    const email = (await ctx.db.user.findUniqueOrThrow({ where: { id: me } })).email;
    const theirs = await list(other, { q: "vid0", limit: 100 });
    expect(theirs.transcriptions.find((t) => t.id === entry.id)?.added_by).toBe(email);
    expect(theirs.transcriptions.filter((t) => t.added_by !== null).map((t) => t.id)).toEqual([entry.id]);
    expect((await list(me, { limit: 100 })).transcriptions.every((t) => t.added_by === null)).toBe(true);
    await ctx.db.transcription.update({ where: { id: entry.id }, data: { actorId: null } });
  });

  it("follows a transcript's new title and channel, and counts entries as they are added, changed and removed", async () => {
    const transcript = await ctx.db.transcript.findFirstOrThrow({ where: { videoId: "vid001" } });
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { title: "Zeppelin story" } });
    expect((await list(me, { q: "zeppelin" })).transcriptions.map((t) => t.video_id)).toEqual(["vid001"]);
    expect((await list(me, { q: "mountain talk 1" })).transcriptions.map((t) => t.video_id)).not.toContain("vid001");
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { channel: "Airship Weekly" } });
    expect((await list(me, { q: "airship" })).total).toBe(1);

    const before = await list(me, { state: "error" });
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: me, videoId: "vid001" } });
    await ctx.db.transcription.update({ where: { id: entry.id }, data: { state: "error" } });
    expect((await list(me, { state: "error" })).total).toBe(before.total + 1);
    await ctx.db.transcription.delete({ where: { id: entry.id } });
    expect((await list(me, { state: "error" })).total).toBe(before.total);
    expect((await list(me, {})).total).toBe(await ctx.db.transcription.count({ where: { userId: me } }));
    // A transcript deleted: the entry stays (transcriptId set null) and is no longer found by its title.
    const gone = await ctx.db.transcript.findFirstOrThrow({ where: { videoId: "vid002" } });
    await ctx.db.transcript.delete({ where: { id: gone.id } });
    expect((await list(me, { q: "mountain talk 2" })).transcriptions.map((t) => t.video_id)).not.toContain("vid002");
    expect((await list(me, { q: "vid002" })).total).toBe(1);
  });
});
