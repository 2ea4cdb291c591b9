import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";

// Writers that add new words to search's shared vocabulary ("SearchTerm") at the same time never deadlock on
// its unique index: a transaction that posts several times (here one statement storing many transcripts, each
// posted on its own) once held some new terms while waiting for another's, which waited for its own.
// On PostgreSQL, each writer as the app writes: transcripts through the store and then named, corrections
// through the save; and two sessions storing many transcripts in one statement each.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "1000000";
  process.env.EDIT_SAVE_SECONDS = "120";
  ctx = await useTestDatabase();
});
afterAll(async () => ctx?.teardown());

/** The `i`th of the new words every writer shares. */
const shared = (i: number) => `sharedword${String(i).padStart(3, "0")}`;
const WORDS = 200;

describe("posting new terms from several writers at once", () => {
  it("two sessions each storing 200 transcripts in one statement, sharing new words in opposite orders: no deadlock", async () => {
    const clients = [new pg.Client({ connectionString: ctx.url }), new pg.Client({ connectionString: ctx.url })];
    await Promise.all(clients.map((c) => c.connect()));
    try {
      // Session 0's k-th transcript holds words k and k + 1; session 1's runs from the other end, so each
      // adds words the other will need.
      const stored = clients.map((client, session) =>
        client.query(
          `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
           SELECT 'bulk-' || $1::int || '-' || k, 'youtube', 'bulk' || $1::int || lpad(k::text, 6, '0'), 'en', 'captions', 'manual', NULL, 'https://example.test/' || k, 60,
                  jsonb_build_array(jsonb_build_object('start', 0, 'end', 5, 'text',
                    (SELECT string_agg(w, ' ') FROM unnest($2::text[]) WITH ORDINALITY AS x(w, n)
                     WHERE n BETWEEN (CASE WHEN $1::int = 0 THEN k ELSE ${WORDS} + 1 - k END) AND (CASE WHEN $1::int = 0 THEN k ELSE ${WORDS} + 1 - k END) + 1)))
           FROM generate_series(1, ${WORDS} - 1) AS k`,
          [session, Array.from({ length: WORDS }, (_, i) => shared(i))],
        ),
      );
      const outcomes = await Promise.allSettled(stored);
      expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "stored"))).toEqual([
        "stored",
        "stored",
      ]);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const [row] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "SearchTerm" WHERE "term" LIKE 'sharedword%'`,
    );
    expect(row!.n).toBe(WORDS);
  });

  it("stores (then named) and saves running at once, sharing new words: every one succeeds", async () => {
    const { storeTranscript } = await import("@/lib/transcripts/store-transcript");
    const { nameUntitled } = await import("@/lib/transcripts/known-title");
    const { saveEdit } = await import("@/lib/edits/revisions");
    const words = (from: number, count: number, step: number) =>
      Array.from({ length: count }, (_, i) => `mixedword${(((from + i * step) % 300) + 300) % 300}`).join(" ");
    const authors = await Promise.all(
      Array.from({ length: 4 }, async (_, a) => {
        const user = await createUser(ctx.db);
        const transcript = await seedTranscript(ctx.db, user.id, { videoId: `concurrent${a}` });
        return { user, transcript };
      }),
    );
    const stores = Array.from({ length: 8 }, async (_, s) => {
      const segments = Array.from({ length: 30 }, (_, i) => ({
        start: i * 2,
        end: i * 2 + 1.5,
        text: words(s * 37 + i * 10, 10, s % 2 === 0 ? 1 : -1),
      }));
      const stored = await storeTranscript(
        { platform: "podcast", videoId: `episode${s}`, lang: "en", origin: "captions" },
        {
          captionKind: "manual",
          title: null,
          sourceUrl: `https://example.test/episode${s}.mp3`,
          durationSeconds: 60,
          segments,
        },
      );
      return nameUntitled(stored, { title: `Episode ${words(s * 11, 6, -1)}` });
    });
    const saves = authors.map(({ user, transcript }, a) =>
      saveEdit(user.id, transcript.id, {
        segments: Array.from({ length: 30 }, (_, i) => ({
          start: i * 10,
          end: i * 10 + 9,
          text: words(a * 53 + i * 10, 10, a % 2 === 0 ? -1 : 1),
        })),
      }),
    );
    const outcomes = await Promise.allSettled([...stores, ...saves]);
    expect(
      outcomes.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const [row] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "SearchTerm" WHERE "term" LIKE 'mixedword%'`,
    );
    expect(row!.n).toBe(300);
  });
});
