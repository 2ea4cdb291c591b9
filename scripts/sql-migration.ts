// `npm run db:sql -- --name <name>`: writes the migration that takes the database the committed migrations
// make to the functions, triggers and views of prisma/sql (lib/db/sql-definitions.ts): each file that differs
// from what the migrations last made of its object, or is new, is run (CREATE OR REPLACE), and an object
// whose file was deleted is dropped. It compares on a throwaway database (the server of DATABASE_URL, default
// the local postgres) the migrations are applied to. `--check` writes nothing and fails if a migration is due.
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { pgExecutor } from "../lib/db/migrate";
import { definitionDrift, driftMigrationSql, noDrift, readSqlDefinitions } from "../lib/db/sql-definitions";
import { MIGRATIONS_DIR, migrationSlug, withMigratedDatabase, writeMigration } from "./new-migration";

async function main() {
  const { values } = parseArgs({
    options: { name: { type: "string" }, check: { type: "boolean", default: false } },
    allowPositionals: false,
  });
  if (!values.name && !values.check) throw new Error("usage: npm run db:sql -- --name <migration_name> | --check");
  const slug = values.name ? migrationSlug(values.name) : "";
  const migrationsDir = path.resolve(MIGRATIONS_DIR);
  const files = await readSqlDefinitions();

  const drift = await withMigratedDatabase("verbatim_sql", migrationsDir, async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await definitionDrift(pgExecutor(client), files);
    } finally {
      await client.end();
    }
  });
  if (noDrift(drift)) {
    console.log(`no changes (${files.length} definitions agree with the migrations)`);
    return;
  }
  const summary = [
    ...drift.changed.map((file) => `changed: prisma/sql/${file.file}`),
    ...drift.added.map((file) => `new: prisma/sql/${file.file}`),
    ...drift.removed.map((object) => `no file, dropped: ${object.kind}/${object.name}`),
  ];
  console.log(summary.join("\n"));
  if (values.check) {
    console.error("db:sql --check: prisma/sql and the migrations disagree; run npm run db:sql -- --name <name>");
    process.exitCode = 1;
    return;
  }
  const file = await writeMigration(migrationsDir, slug, driftMigrationSql(drift));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message || error.name : String(error);
  console.error(`db:sql failed: ${message}`);
  process.exitCode = 1;
});
