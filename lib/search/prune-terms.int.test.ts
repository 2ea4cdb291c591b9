import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { waitFor } from "@/test/jobs/helpers";
import { storeTranscript } from "@/test/search";

// The vocabulary's prune (the hourly cleanup's): words no passage holds go, words some passage holds stay, and a
// word a write in progress has numbered is not taken from under the postings that write is about to add.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let deleteUnusedSearchTerms: typeof import("@/lib/search/prune-terms").deleteUnusedSearchTerms;
let userId: string;

beforeAll(async () => {
  ctx = await useTestDatabase();
  ({ deleteUnusedSearchTerms } = await import("@/lib/search/prune-terms"));
  userId = (await createUser(ctx.db)).id;
});
afterAll(async () => ctx?.teardown());

const terms = async (...words: string[]) =>
  (
    await ctx.db.$queryRaw<{ term: string }[]>`SELECT "term" FROM "SearchTerm" WHERE "term" = ANY (${words}) ORDER BY 1`
  ).map((row) => row.term);

const passage = (text: string) => [{ start: 0, end: 4, text }];

describe("the vocabulary's prune", () => {
  it("deletes the words of deleted transcripts and keeps those another passage holds", async () => {
    const gone = await storeTranscript(ctx.db, {
      segments: passage("The quixotrel sang of harbours."),
      lang: "en",
      title: "Gone",
      userIds: [userId],
    });
    await storeTranscript(ctx.db, {
      segments: passage("Harbours at dawn."),
      lang: "en",
      title: "Kept",
      userIds: [userId],
    });
    expect(await terms("quixotrel", "harbour", "sang")).toEqual(["harbour", "quixotrel", "sang"]);
    await ctx.db.transcript.delete({ where: { id: gone.transcript.id } });

    expect(await deleteUnusedSearchTerms()).toBeGreaterThanOrEqual(2);
    expect(await terms("quixotrel", "harbour", "sang")).toEqual(["harbour"]);
    const orphans = await ctx.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "SearchPosting" sp WHERE NOT EXISTS (SELECT 1 FROM "SearchTerm" st WHERE st."id" = sp."termId")`;
    expect(orphans[0]!.n).toBe(0);
    expect(await deleteUnusedSearchTerms()).toBe(0);
  });

  it("waits for a write in progress, whose new word keeps its postings", async () => {
    const writer = new pg.Client({ connectionString: ctx.url });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query(
        `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "durationSeconds", "segments")
         VALUES ('prune-writer', 'youtube', 'prunewriter', 'en', 'captions', 'Writer', 'https://www.youtube.com/watch?v=prunewriter', 4, $1)`,
        [JSON.stringify(passage("A zorblatt crossed the bay."))],
      );
      let settled = false;
      const prune = deleteUnusedSearchTerms().finally(() => (settled = true));
      // The prune asks for the vocabulary's lock and waits: the writer holds it shared until it commits.
      await waitFor(async () => {
        const waiting = await ctx.db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_locks WHERE "locktype" = 'advisory' AND NOT "granted"`;
        return waiting[0]!.n > 0;
      });
      expect(settled).toBe(false);
      await writer.query("COMMIT");
      await prune;
      expect(await terms("zorblatt")).toEqual(["zorblatt"]);
      const postings = await ctx.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM "SearchPosting" sp JOIN "SearchTerm" st ON st."id" = sp."termId"
        WHERE st."term" = 'zorblatt'`;
      expect(postings[0]!.n).toBe(1);
    } finally {
      await writer.end();
    }
  });
});
