import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";

// A save's deadline stops the database's statement itself (SET LOCAL statement_timeout), not only Prisma's
// transaction timer, which would leave the statement running and holding the database after the save answered.
// Another session holds the author's save lock (the advisory lock one save at a time per user takes), so the
// save's transaction cannot finish within its deadline (EDIT_SAVE_SECONDS, lowered); the save is small enough to
// be prepared on the spot, where that deadline does not apply.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let saveEdit: typeof import("@/lib/edits/revisions").saveEdit;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "1000000";
  process.env.EDIT_SAVE_SECONDS = "0.001";
  ctx = await useTestDatabase();
  ({ saveEdit } = await import("@/lib/edits/revisions"));
});
afterAll(async () => ctx?.teardown());

describe("a save past its deadline", () => {
  it("is cancelled in the database: 503 with Retry-After, nothing stored or indexed, no statement left running", async () => {
    const author = await createUser(ctx.db);
    const transcript = await seedTranscript(ctx.db, author.id, { videoId: "deadline001" });
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { durationSeconds: 100_000 } });
    // 6,000 different words (about 36,000 characters).
    const word = (i: number) => `zq${i.toString(36).padStart(4, "x")}`;
    const segments = Array.from({ length: 60 }, (_, i) => ({
      start: i * 10,
      end: i * 10 + 9,
      text: Array.from({ length: 100 }, (_, w) => word(i * 100 + w)).join(" "),
    }));
    const holder = new pg.Client({ connectionString: ctx.url });
    await holder.connect();
    // Ended however the test ends: a session left open is cut by the teardown's DROP DATABASE, an uncaught error.
    onTestFinished(() => holder.end().catch(() => undefined));
    await holder.query(`SELECT pg_advisory_lock(hashtext('transcript-revision:' || $1))`, [author.id]);
    const failure = await saveEdit(author.id, transcript.id, { segments }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      status: 503,
      code: "database_unavailable",
      detail: expect.stringContaining("nothing was stored"),
      headers: { "Retry-After": "5" },
    });
    expect(await ctx.db.transcriptRevision.count({ where: { userId: author.id } })).toBe(0);
    const [row] = await ctx.db.$queryRawUnsafe<{ terms: number; passages: number; running: number }[]>(
      `SELECT (SELECT count(*)::int FROM "SearchTerm" WHERE "term" = ANY ($1::text[])) AS terms,
              (SELECT count(*)::int FROM "RevisionPassage") AS passages,
              (SELECT count(*)::int FROM pg_stat_activity
               WHERE state = 'active' AND datname = current_database() AND (query LIKE '%INSERT INTO "TranscriptRevision"%' OR query LIKE '%verbatim_index_revision_step%'
                      OR query LIKE '%pg_advisory_xact_lock%')
                 AND pid <> pg_backend_pid()) AS running`,
      [[word(0), word(3000), word(5999)]],
    );
    expect(row).toEqual({ terms: 0, passages: 0, running: 0 });
    await holder.end();
    // The database answers another user at once.
    const reader = await createUser(ctx.db);
    expect(await ctx.db.user.findUnique({ where: { id: reader.id }, select: { id: true } })).toEqual({ id: reader.id });
  });
});
