import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pgExecutor } from "@/lib/db/migrate";
import {
  definitionDrift,
  driftMigrationSql,
  readSqlDefinitions,
  SqlDefinitionError,
  sqlDefinitionsDir,
} from "@/lib/db/sql-definitions";
import { createMigratedTestDatabase } from "@/test/pg";

// prisma/sql against the migration history: what PostgreSQL prints for each function, trigger and view of a
// database the migrations made, before and after running the files (what `npm run db:sql` compares).

let database: Awaited<ReturnType<typeof createMigratedTestDatabase>>;
let client: pg.Client;
const tempDirs: string[] = [];

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** A copy of prisma/sql that a test may edit. */
async function definitionsCopy() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-sql-"));
  tempDirs.push(dir);
  await cp(sqlDefinitionsDir(), dir, { recursive: true });
  return dir;
}

const names = (files: { kind: string; name: string }[]) => files.map((file) => `${file.kind}/${file.name}`);

describe("prisma/sql", () => {
  it("has one file for each function, trigger and view, each what the migrations last made of it", async () => {
    const files = await readSqlDefinitions();
    expect(names(files).filter((name) => name.startsWith("functions/"))).toHaveLength(24);
    expect(names(files).filter((name) => name.startsWith("triggers/"))).toHaveLength(19);
    expect(names(files)).toContain("views/SearchPassage");

    const drift = await definitionDrift(pgExecutor(client), files);

    expect({
      changed: names(drift.changed),
      added: names(drift.added),
      removed: names(drift.removed),
    }).toEqual({ changed: [], added: [], removed: [] });
  });

  it("finds changed, new and deleted files, and the migration written from them makes the database agree", async () => {
    const dir = await definitionsCopy();
    await writeFile(
      path.join(dir, "functions/verbatim_search_impact.sql"),
      `CREATE OR REPLACE FUNCTION verbatim_search_impact(tf INTEGER, dl INTEGER, in_title BOOLEAN) RETURNS REAL
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ($1 * 2.2 / ($1 + 1.2 * (0.25 + 0.75 * $2 / 20.0)) + CASE WHEN $3 THEN 2.0 ELSE 0.0 END)::real
$$;
`,
    );
    await writeFile(
      path.join(dir, "triggers/Transcription_count.sql"),
      `CREATE OR REPLACE TRIGGER "Transcription_count"
AFTER INSERT OR DELETE ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_history_count();
`,
    );
    // Named so that name order would create the caller before the function it calls.
    await writeFile(
      path.join(dir, "functions/verbatim_answer.sql"),
      `CREATE OR REPLACE FUNCTION verbatim_answer() RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$ SELECT verbatim_answer_part() * 2 $$;\n`,
    );
    await writeFile(
      path.join(dir, "functions/verbatim_answer_part.sql"),
      `CREATE OR REPLACE FUNCTION verbatim_answer_part() RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$ SELECT 21 $$;\n`,
    );
    await rm(path.join(dir, "views/SearchPassage.sql"));
    const files = await readSqlDefinitions(dir);
    const migrated = await createMigratedTestDatabase();
    const other = new pg.Client({ connectionString: migrated.url });
    await other.connect();
    try {
      const db = pgExecutor(other);

      const drift = await definitionDrift(db, files);

      expect(names(drift.changed)).toEqual(["functions/verbatim_search_impact", "triggers/Transcription_count"]);
      expect(names(drift.added)).toEqual(["functions/verbatim_answer", "functions/verbatim_answer_part"]);
      expect(names(drift.removed)).toEqual(["views/SearchPassage"]);
      // The comparison ran in a transaction that was rolled back.
      const [unchanged] = await db.query<{ impact: number }>(`SELECT verbatim_search_impact(1, 20, true) AS impact`);
      // The committed function: the title as half an occurrence inside the saturation (1.5 · 2.2 / 2.7).
      expect(unchanged!.impact).toBeCloseTo(3.3 / 2.7, 5);

      const migration = driftMigrationSql(drift);
      expect(migration.indexOf("verbatim_answer_part()")).toBeLessThan(migration.indexOf("FUNCTION verbatim_answer()"));
      await db.exec(migration);

      expect(await definitionDrift(db, files)).toEqual({ changed: [], added: [], removed: [] });
      const [row] = await db.query<{ impact: number; answer: number }>(
        `SELECT verbatim_search_impact(1, 20, true) AS impact, verbatim_answer() AS answer`,
      );
      expect(row).toEqual({ impact: 3, answer: 42 });
      expect(await db.query(`SELECT 1 FROM pg_views WHERE viewname = 'SearchPassage'`)).toEqual([]);
    } finally {
      await other.end();
      await migrated.drop();
    }
  });

  it("refuses a file that creates something other than its name, or does not run", async () => {
    const dir = await definitionsCopy();
    await writeFile(
      path.join(dir, "functions/verbatim_misnamed.sql"),
      `CREATE OR REPLACE FUNCTION verbatim_other() RETURNS INTEGER LANGUAGE sql AS $$ SELECT 1 $$;\n`,
    );
    await expect(definitionDrift(pgExecutor(client), await readSqlDefinitions(dir))).rejects.toThrow(
      /create functions\/verbatim_other: a file's name must be the name of what it creates/,
    );

    await rm(path.join(dir, "functions/verbatim_misnamed.sql"));
    await writeFile(
      path.join(dir, "functions/verbatim_search_impact.sql"),
      `CREATE OR REPLACE FUNCTION verbatim_search_impact(tf INTEGER, dl INTEGER, in_title BOOLEAN) RETURNS INTEGER LANGUAGE sql AS $$ SELECT 1 $$;\n`,
    );
    const refusal = definitionDrift(pgExecutor(client), await readSqlDefinitions(dir));
    await expect(refusal).rejects.toThrow(SqlDefinitionError);
    await expect(refusal).rejects.toThrow(/prisma\/sql\/functions\/verbatim_search_impact\.sql does not run/);
    // Nothing stayed: the files still agree with the database.
    expect(await definitionDrift(pgExecutor(client), await readSqlDefinitions())).toEqual({
      changed: [],
      added: [],
      removed: [],
    });
  });
});
