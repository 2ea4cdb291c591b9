// The flat-reads migrations (docs/decisions/0007-reads-that-stay-flat-as-data-grows.md) on databases that already hold rows: the history's trigram index,
// searchText kept in lower case (lowered in committed batches), the search probe's index and the history's
// covering index, on PostgreSQL and on embedded PGlite. lib/db/migrate.int.test.ts tests the runner itself.
import { createHash } from "node:crypto";
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

describe("the library_lexemes migration", () => {
  const { connect, migrationsCopy } = useMigrationsDatabase();
  const LATER = MIGRATIONS.filter((name) => name >= "20261126034000");
  const segments = (text: string) => JSON.stringify([{ start: 0, end: 5, text }]);
  /** An entry's lexemes without its user's key (checked apart). */
  const lexemes = async (query: (sql: string) => Promise<{ rows: unknown[] }>, id: string) =>
    (
      (
        await query(
          `SELECT replace("lexemes"::text, verbatim_library_key("userId") || ' ', '') AS l FROM "Transcription" WHERE "id" = '${id}'`,
        )
      ).rows[0] as { l: string }
    ).l;
  const seed = `
    INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('u1', 'u1@example.com', now()), ('u2', 'u2@example.com', now());
    INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "sourceUrl", "segments")
      VALUES ('t1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 'u', '${segments("The deep oceans")}');
    INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
      VALUES ('h1', 'u1', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 't1', 'done', now()),
             ('h2', 'u2', 'youtube', 'AbCdEfGhIjK', 'en', 'captions', 't1', 'done', now()),
             ('h3', 'u2', 'youtube', 'ZzZzZzZzZzZ', 'en', 'captions', NULL, 'in_progress', now());
    INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes")
      VALUES ('r1', 'u1', 't1', '${segments("The deep lighthouse")}', 40);`;

  it("fills the entries of a database that has rows, and triggers keep them as their passages change", async () => {
    const dir = await migrationsCopy();
    for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
    const client = await connect();
    await applyMigrations(pgExecutor(client), { dir });
    await client.query(seed);
    expect((await applyMigrations(pgExecutor(client))).applied).toEqual(LATER);
    const query = (sql: string) => client.query(sql);
    // The transcript's words, and the author's correction's for the author alone; none without a transcript.
    expect(await lexemes(query, "h1")).toBe("'deep' 'lighthous' 'ocean'");
    expect(await lexemes(query, "h2")).toBe("'deep' 'ocean'");
    expect(await lexemes(query, "h3")).toBe("");
    // Each word after the user's key: the first 8 hex digits of the SHA-256 of their id, as the search computes it.
    const { rows: keyed } = await client.query(`SELECT "lexemes"::text AS l FROM "Transcription" WHERE "id" = 'h2'`);
    const key = createHash("sha256").update("u2").digest("hex").slice(0, 8);
    expect(keyed).toEqual([{ l: `'${key} deep' '${key} ocean'` }]);
    // A transcript cut again, a correction saved, an entry given its transcript.
    await client.query(`UPDATE "Transcript" SET "segments" = '${segments("Shallow seas")}' WHERE "id" = 't1'`);
    expect(await lexemes(query, "h2")).toBe("'sea' 'shallow'");
    await client.query(
      `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('r2', 'u2', 't1', '${segments("Shallow reefs")}', 30)`,
    );
    expect(await lexemes(query, "h2")).toBe("'reef' 'sea' 'shallow'");
    await client.query(`UPDATE "Transcription" SET "transcriptId" = 't1', "state" = 'done' WHERE "id" = 'h3'`);
    expect(await lexemes(query, "h3")).toBe("'reef' 'sea' 'shallow'");
    const { rows } = await client.query(
      `SELECT pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indisvalid AND c.relname = 'Transcription_lexemes_idx'`,
    );
    expect(rows).toEqual([{ definition: expect.stringContaining(`USING gin (lexemes)`) }]);
  });

  it("fills the entries of an embedded PGlite database", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-migrations-"));
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      for (const name of LATER) await rm(path.join(dir, name), { recursive: true });
      await applyMigrations(pgliteExecutor(pglite), { dir });
      await pglite.exec(seed);
      expect((await applyMigrations(pgliteExecutor(pglite))).applied).toEqual(LATER);
      const query = (sql: string) => pglite.query(sql);
      expect(await lexemes(query, "h1")).toBe("'deep' 'lighthous' 'ocean'");
      await pglite.exec(`UPDATE "Transcript" SET "segments" = '${segments("Shallow seas")}' WHERE "id" = 't1'`);
      expect(await lexemes(query, "h2")).toBe("'sea' 'shallow'");
    } finally {
      await pglite.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
