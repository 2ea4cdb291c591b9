// The flat-reads migrations (docs/decisions/0007-reads-that-stay-flat-as-data-grows.md) on databases that already hold rows: the history's trigram index,
// searchText kept in lower case (lowered in committed batches), the search probe's index and the history's
// covering index, on PostgreSQL and on embedded PGlite. lib/db/migrate.int.test.ts tests the runner itself.
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { applyMigrations, pgExecutor, pgliteExecutor } from "@/lib/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/db/pglite-extensions";
import { MIGRATIONS, MIGRATIONS_DIR, useMigrationsDatabase } from "@/test/migrations-db";

describe("the flat-reads migrations on PostgreSQL", () => {
  const { connect, migrationsCopy } = useMigrationsDatabase();

  it("builds the history's trigram index and keeps searchText and HistoryCount on a migrated database", async () => {
    const client = await connect();
    await applyMigrations(pgExecutor(client));
    const { rows } = await client.query<{ relname: string }>(
      `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indisvalid AND c.relname = ANY($1)`,
      [
        [
          "Transcription_userId_searchText_idx",
          "Publication_transcriptId_publishedAt_idx",
          "Publication_sitemapSeq_key",
        ],
      ],
    );
    expect(rows.map((row) => row.relname).sort()).toEqual([
      "Publication_sitemapSeq_key",
      "Publication_transcriptId_publishedAt_idx",
      "Transcription_userId_searchText_idx",
    ]);
  });

  it("lowers the history's searchText, moves the search probe's index onto (transcriptId, userId, state) and builds the history's covering index on a database that has rows", async () => {
    // Migrated up to the one before them, with an entry written then; then the rest, as a deploy would.
    const later = MIGRATIONS.filter((name) => name >= "20261125213000");
    expect(later.slice(0, 2)).toEqual(["20261125213000_search_probe_index", "20261125213100_history_search_lowercase"]);
    const dir = await migrationsCopy();
    for (const name of later) await rm(path.join(dir, name), { recursive: true });
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    await client.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'u1@example.com', now())`);
    await client.query(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "channel", "sourceUrl", "segments")
       VALUES ('t1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 'Deep Ocean', 'Ümlaut Channel', 'u', '[]')`,
    );
    await client.query(
      `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "title", "updatedAt")
       VALUES ('h1', 'u1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 't1', 'done', 'My NOTES', now())`,
    );
    // One entry more than a batch of the lowering (5,000 a transaction): two batches.
    await client.query(
      `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "state", "title", "updatedAt")
       SELECT 'm' || i, 'u1', 'youtube', 'V' || i, 'en', 'captions', 'done', 'Entry ' || i, now() FROM generate_series(1, 5000) AS i`,
    );
    const searchText = async () =>
      (await client.query<{ searchText: string }>(`SELECT "searchText" FROM "Transcription" WHERE "id" = 'h1'`))
        .rows[0]!.searchText;
    const notLowered = async () =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "Transcription" WHERE "searchText" <> lower("searchText")`,
        )
      ).rows[0]!.n;
    expect(await searchText()).toBe("AbCdEfGhIjK\nMy NOTES\nDeep Ocean\nÜmlaut Channel");
    expect(await notLowered()).toBe(5_001);

    expect((await applyMigrations(pgExecutor(client))).applied).toEqual(later);
    expect(await searchText()).toBe("abcdefghijk\nmy notes\ndeep ocean\nümlaut channel");
    expect(await notLowered()).toBe(0);
    // New and changed rows are kept in lower case by the triggers.
    await client.query(`UPDATE "Transcript" SET "title" = 'Shallow SEA' WHERE "id" = 't1'`);
    expect(await searchText()).toBe("abcdefghijk\nmy notes\nshallow sea\nümlaut channel");
    const { rows } = await client.query<{ relname: string; valid: boolean }>(
      `SELECT c.relname, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname LIKE 'Transcription_transcriptId_%'`,
    );
    expect(rows).toEqual([{ relname: "Transcription_transcriptId_userId_state_idx", valid: true }]);
    // The newest-first sort's index now carries what the `q` reads need (history_covering_index).
    const { rows: covering } = await client.query<{ relname: string; definition: string }>(
      `SELECT c.relname, pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indisvalid AND c.relname IN ('Transcription_history_covering_idx', 'Transcription_userId_createdAt_id_idx')`,
    );
    expect(covering.map((row) => row.relname)).toEqual(["Transcription_history_covering_idx"]);
    expect(covering[0]!.definition).toContain(
      `("userId", "createdAt", id) INCLUDE ("searchText", state, platform, "durationSeconds", "totalSeconds")`,
    );
  });
});

describe("the history_search_lowercase migration on embedded PGlite", () => {
  it("lowers the searchText of an existing embedded database (its batches COMMIT inside a DO block)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      const later = MIGRATIONS.filter((name) => name >= "20261125213100");
      for (const name of later) await rm(path.join(dir, name), { recursive: true });
      await applyMigrations(pgliteExecutor(pglite), { dir });
      await pglite.exec(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'u1@example.com', now())`);
      await pglite.exec(
        `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "state", "title", "updatedAt")
         SELECT 'h' || i, 'u1', 'youtube', 'V' || i, 'en', 'captions', 'done', 'My NOTES ' || i, now() FROM generate_series(1, 10) AS i`,
      );
      const notLowered = async () =>
        (
          await pglite.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM "Transcription" WHERE "searchText" <> lower("searchText")`,
          )
        ).rows[0]!.n;
      expect(await notLowered()).toBe(10);
      expect((await applyMigrations(pgliteExecutor(pglite))).applied).toEqual(later);
      expect(await notLowered()).toBe(0);
      const { rows } = await pglite.query(`SELECT "searchText" FROM "Transcription" WHERE "id" = 'h7'`);
      expect(rows).toEqual([{ searchText: "v7\nmy notes 7" }]);
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the search_postings migration", () => {
  const { connect, migrationsCopy } = useMigrationsDatabase();
  const LATER = MIGRATIONS.filter((name) => name >= "20261127130500");
  const segments = (text: string) => JSON.stringify([{ start: 0, end: 5, text }]);
  /** The terms of a transcript's passages (or of its correction's, `revision`), each with its impact in the passage. */
  const postings = async (query: (sql: string) => Promise<{ rows: unknown[] }>, revision: string | null = null) =>
    Object.fromEntries(
      (
        (
          await query(
            `SELECT st."term", sp."impact" FROM "SearchPassage" p JOIN "SearchPosting" sp ON sp."pid" = p."pid"
             JOIN "SearchTerm" st ON st."id" = sp."termId"
             WHERE p."transcriptId" = 't1' AND p."revisionId" IS NOT DISTINCT FROM ${revision ? `'${revision}'` : "NULL"} ORDER BY 1`,
          )
        ).rows as { term: string; impact: number }[]
      ).map((row) => [row.term, row.impact]),
    );
  const seed = `
    INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'u1@example.com', now());
    INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "sourceUrl", "segments", "title")
      VALUES ('t1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 'u', '${segments("The deep oceans, deep and deep")}', 'Oceans');
    INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
      VALUES ('h1', 'u1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 't1', 'done', now());
    INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes")
      VALUES ('r1', 'u1', 't1', '${segments("The deep lighthouse")}', 40);`;

  /** Before the migration the database has rows; after it, the entries' words are gone and every passage is posted. */
  async function migrated(query: (sql: string) => Promise<{ rows: unknown[] }>) {
    const { rows: columns } = await query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'Transcription' AND column_name = 'lexemes'`,
    );
    expect(columns).toEqual([]);
    // A word said three times weighs more than once, not three times as much; the title's word weighs more.
    const words = await postings(query);
    expect(Object.keys(words)).toEqual(["deep", "ocean"]);
    expect(words.deep).toBeGreaterThan(words.ocean! - 1);
    expect(words.deep).toBeLessThan(3 * (words.ocean! - 1));
    expect(await postings(query, "r1")).toEqual({ deep: expect.any(Number), lighthous: expect.any(Number) });
  }

  it("posts the passages of a database that has rows, and triggers keep the postings as passages and titles change", async () => {
    const dir = await migrationsCopy();
    for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    await client.query(seed);
    expect((await applyMigrations(pgExecutor(client))).applied).toEqual(LATER);
    const query = (sql: string) => client.query(sql);
    await migrated(query);
    // A transcript cut again: its old postings go, the new passages are posted.
    await client.query(`UPDATE "Transcript" SET "segments" = '${segments("Shallow seas")}' WHERE "id" = 't1'`);
    expect(Object.keys(await postings(query))).toEqual(["sea", "shallow"]);
    // A new title: the impacts of its words in the passages (the correction's too).
    const before = await postings(query);
    await client.query(`UPDATE "Transcript" SET "title" = 'Shallow' WHERE "id" = 't1'`);
    const after = await postings(query);
    expect(after.sea).toBe(before.sea);
    // The title is a field inside BM25's saturation (verbatim_search_impact): more, but never past its bound.
    expect(after.shallow).toBeGreaterThan(before.shallow!);
    expect(after.shallow).toBeLessThan(2.2);
    await client.query(`UPDATE "Transcript" SET "title" = 'Lighthouse keepers' WHERE "id" = 't1'`);
    expect((await postings(query, "r1")).lighthous).toBeGreaterThan(1);
    // A correction replaced, a transcript deleted: no posting is left without its passage.
    await client.query(
      `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('r2', 'u1', 't1', '${segments("Shallow reefs")}', 30)`,
    );
    // Indexed after its save, as lib/edits/revision-index.ts does: served whole, then the replaced one's passages go.
    expect(Object.keys(await postings(query, "r1"))).toEqual(["deep", "lighthous"]);
    while (
      (await client.query(`SELECT verbatim_index_revision_step('r2', 2147483647) AS state`)).rows[0].state === "more"
    );
    expect(await postings(query, "r1")).toEqual({});
    expect(Object.keys(await postings(query, "r2"))).toEqual(["reef", "shallow"]);
    await client.query(`SELECT verbatim_unindex_revisions_step(2147483647)`);
    const { rows: replaced } = await client.query(
      `SELECT count(*)::int AS n FROM "RevisionPassage" WHERE "revisionId" = 'r1'`,
    );
    expect(replaced).toEqual([{ n: 0 }]);
    await client.query(`DELETE FROM "Transcript" WHERE "id" = 't1'`);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM "SearchPosting"`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("posts the passages of an embedded PGlite database", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
      await applyMigrations(pgliteExecutor(pglite), { dir });
      await pglite.exec(seed);
      expect((await applyMigrations(pgliteExecutor(pglite))).applied).toEqual(LATER);
      const query = (sql: string) => pglite.query(sql);
      await migrated(query);
      await pglite.exec(`UPDATE "Transcript" SET "segments" = '${segments("Shallow seas")}' WHERE "id" = 't1'`);
      expect(Object.keys(await postings(query))).toEqual(["sea", "shallow"]);
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
