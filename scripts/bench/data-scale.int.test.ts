// The data-scale benchmark seeds by SQL (minutes for a million rows, where the app's own functions would take
// hours): its rows must be the rows the app writes. A small seed (1,000 of each) next to one transcript,
// history entry and publication written by the app's own functions (storeTranscript, recordTranscription,
// the create publishTranscript makes), compared column by column: which are set and which stay empty, the
// passages the trigger cut, the history's searchText and counts kept by triggers.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { seedScale } from "./data-scale-db";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let seededTranscript: Record<string, unknown>;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  // The seed's talks are up to an hour long: no allowance in the way of recording one.
  delete process.env.FREE_ALLOWANCE_SECONDS;
  ctx = await useTestDatabase();
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  try {
    await seedScale(client, 1000);
  } finally {
    await client.end();
  }
  seededTranscript = (await ctx.db.transcript.findUniqueOrThrow({ where: { id: "st-7" } })) as Record<string, unknown>;
  // The app writes the same source (another language, so the unique key differs) for a user of its own.
  const { storeTranscript } = await import("@/lib/transcripts/store-transcript");
  const { recordTranscription } = await import("@/lib/transcripts/record-transcription");
  const user = await ctx.db.user.create({ data: { id: "app-user", email: "app@bench.test" } });
  const s = seededTranscript;
  const stored = await storeTranscript(
    { platform: "youtube", videoId: s.videoId as string, lang: "en-GB", origin: "captions" },
    {
      title: s.title as string,
      channel: s.channel as string,
      sourceUrl: s.sourceUrl as string,
      durationSeconds: s.durationSeconds as number,
      segments: s.segments as object,
    },
  );
  await recordTranscription(user.id, stored);
  await ctx.db.publication.create({
    data: { slug: "app-talk", userId: user.id, transcriptId: stored.id, publishedAt: new Date() },
  });
});
afterAll(async () => ctx?.teardown());

/** Which columns of a row are set (not null). */
const setColumns = (row: Record<string, unknown>) =>
  Object.entries(row)
    .filter(([, v]) => v !== null)
    .map(([k]) => k)
    .sort();

describe("the data-scale seed", () => {
  it("writes the columns the app writes", async () => {
    const app = await ctx.db.transcript.findFirstOrThrow({ where: { lang: "en-GB" } });
    expect(setColumns(seededTranscript)).toEqual(setColumns(app as Record<string, unknown>));
    const seededEntry = await ctx.db.transcription.findUniqueOrThrow({ where: { id: "sh-7" } });
    const appEntry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: "app-user" } });
    expect(setColumns(seededEntry)).toEqual(setColumns(appEntry));
    expect(seededEntry.origin).toBe(appEntry.origin);
    expect(seededEntry.searchText).toBe(appEntry.searchText);
    const seededPub = await ctx.db.publication.findUniqueOrThrow({ where: { id: "sp-7" } });
    const appPub = await ctx.db.publication.findFirstOrThrow({ where: { userId: "app-user" } });
    expect(setColumns(seededPub)).toEqual(setColumns(appPub));
  });

  it("has the passages and postings the triggers make for the same segments, and counts kept by the trigger", async () => {
    const passages = (transcriptId: string) =>
      ctx.db.$queryRawUnsafe<unknown[]>(
        `SELECT "seq", "segFrom", "segTo", "start", "end", "config", "tsv"::text FROM "TranscriptPassage" WHERE "transcriptId" = $1 ORDER BY "seq"`,
        transcriptId,
      );
    const app = await ctx.db.transcript.findFirstOrThrow({ where: { lang: "en-GB" } });
    expect(await passages("st-7")).toEqual(await passages(app.id));
    expect((await passages("st-7")).length).toBeGreaterThan(0);
    // Posted for search at the end of the seed, as the triggers post the app's.
    const postings = (transcriptId: string) =>
      ctx.db.$queryRawUnsafe<unknown[]>(
        `SELECT p."seq", st."term", sp."impact" FROM "SearchPosting" sp
         JOIN "SearchTerm" st ON st."id" = sp."termId" JOIN "SearchPassage" p ON p."pid" = sp."pid"
         WHERE p."transcriptId" = $1 ORDER BY 1, 2`,
        transcriptId,
      );
    expect(await postings("st-7")).toEqual(await postings(app.id));
    expect((await postings("st-7")).length).toBeGreaterThan(5);
    const off = await ctx.db.$queryRawUnsafe<unknown[]>(`SELECT "tgname" FROM pg_trigger WHERE "tgenabled" = 'D'`);
    expect(off).toEqual([]);
    const differences = await ctx.db.$queryRawUnsafe<unknown[]>(
      `(SELECT "userId", "platform", "state", "n" FROM "HistoryCount" WHERE "n" > 0
        EXCEPT SELECT "userId", "platform", "state", count(*)::int FROM "Transcription" GROUP BY 1, 2, 3)
       UNION ALL
       (SELECT "userId", "platform", "state", count(*)::int FROM "Transcription" GROUP BY 1, 2, 3
        EXCEPT SELECT "userId", "platform", "state", "n" FROM "HistoryCount" WHERE "n" > 0)`,
    );
    expect(differences).toEqual([]);
    expect(await ctx.db.historyCount.count()).toBeGreaterThan(3);
    // The seeded team's per-member usage counters, as the trigger keeps them for the app's writes.
    const usage = await ctx.db.$queryRawUnsafe<unknown[]>(
      `(SELECT "userId", "actorId", "hour", "requests", "seconds" FROM "MemberUsageHour"
        EXCEPT SELECT "userId", "actorId", date_trunc('hour', "createdAt"), count(*)::int, sum("totalSeconds")::int
        FROM "Transcription" WHERE "actorId" IS NOT NULL AND "state" <> 'error' GROUP BY 1, 2, 3)
       UNION ALL
       (SELECT "userId", "actorId", date_trunc('hour', "createdAt"), count(*)::int, sum("totalSeconds")::int
        FROM "Transcription" WHERE "actorId" IS NOT NULL AND "state" <> 'error' GROUP BY 1, 2, 3
        EXCEPT SELECT "userId", "actorId", "hour", "requests", "seconds" FROM "MemberUsageHour")`,
    );
    expect(usage).toEqual([]);
    expect(await ctx.db.memberUsageHour.count()).toBeGreaterThan(3);
  });
});
