// `npm run db:diff -- --name <name>`: writes the SQL migration that takes the database produced by the
// committed migrations to prisma/schema.prisma, without Prisma's native schema engine (which cannot be
// downloaded here). It drives Prisma's WebAssembly schema engine (@prisma/schema-engine-wasm) through the
// `pg` driver adapter against a throwaway PostgreSQL database:
//
//   1. CREATE DATABASE verbatim_diff_<random> on the server of DATABASE_URL (default: local postgres);
//   2. apply prisma/migrations to it with lib/db/migrate.ts (the same runner `npm run db:migrate` uses);
//   3. ask the engine to diff that database (`schemaDatasource`) to the schema (`schemaDatamodel`), as
//      `prisma migrate diff --from-config-datasource --to-schema --script` does;
//   4. write prisma/migrations/<UTC yyyymmddhhmmss>_<name>/migration.sql, or print "no changes";
//   5. DROP DATABASE ... WITH (FORCE), whatever happened.
//
// Options: --name <name> (required), --verbose (print the engine's log lines).
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import {
  existingMigrations,
  MIGRATIONS_DIR,
  migrationSlug,
  withMigratedDatabase,
  writeMigration,
} from "./new-migration";

const SCHEMA_PATH = "prisma/schema.prisma";

/** Instantiates the engine's wasm module by hand: Node cannot `import` a .wasm file without a flag. */
function loadSchemaEngine(): typeof engineBindings {
  const require = createRequire(import.meta.url);
  const glue = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bytes = readFileSync(path.join(path.dirname(glue), "schema_engine_bg.wasm"));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    "./schema_engine_bg.js": engineBindings as unknown as WebAssembly.ModuleImports,
  });
  engineBindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  return engineBindings;
}

// The engine's PostgreSQL describer selects a few `"char"` catalog columns (pg_constraint.contype,
// confdeltype, confupdtype). @prisma/adapter-pg 7.10 has no column type for OID 18 and rejects the whole
// result ("Column type 'char' could not be deserialized"). `pg` already returns those values as
// one-character strings, so report the columns as text (OID 25), which the engine reads fine.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
function charColumnsAsText<R>(result: R): R {
  const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
  if (Array.isArray(fields))
    for (const field of fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  return result;
}
class CharAsTextClient extends pg.Client {
  // pg's query() has many overloads (promise, callback, submittable); wrap the result whichever is used.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const callbackIndex = args.findIndex((arg) => typeof arg === "function");
    if (callbackIndex >= 0) {
      const callback = args[callbackIndex] as (error: unknown, result: unknown) => void;
      args[callbackIndex] = (error: unknown, result: unknown) =>
        callback(error, error ? result : charColumnsAsText(result));
    }
    const returned = (super.query as (...a: unknown[]) => unknown)(...args);
    return returned instanceof Promise ? returned.then(charColumnsAsText) : returned;
  }
}

async function main() {
  const { values } = parseArgs({
    options: { name: { type: "string" }, verbose: { type: "boolean", default: false } },
    allowPositionals: false,
  });
  if (!values.name) throw new Error("usage: npm run db:diff -- --name <migration_name>");
  const slug = migrationSlug(values.name);

  const cwd = process.cwd();
  const schemaPath = path.resolve(cwd, SCHEMA_PATH);
  const migrationsDir = path.resolve(cwd, MIGRATIONS_DIR);
  const schema = await readFile(schemaPath, "utf8");
  const existing = existingMigrations(migrationsDir);

  const { SchemaEngine, version } = loadSchemaEngine();
  // 1, 2, 5: the database as the committed migrations leave it, dropped afterwards.
  await withMigratedDatabase("verbatim_diff", migrationsDir, async (url) => {
    let pool: pg.Pool | undefined;
    let engine: engineBindings.SchemaEngine | undefined;
    try {
      // 3. Diff it to the schema with the wasm engine over the pg driver adapter.
      pool = new pg.Pool({ connectionString: url, max: 2, Client: CharAsTextClient });
      const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
      const engineLog = (line: string) => {
        if (values.verbose) console.error(`[schema-engine] ${line}`);
      };
      const files = [{ path: schemaPath, content: schema }];
      engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, engineLog, adapter);
      const result = await engine.diff({
        from: { tag: "schemaDatasource", files, configDir: cwd },
        to: { tag: "schemaDatamodel", files },
        script: true,
        exitCode: true,
        filters: { externalTables: [], externalEnums: [] },
      });
      // With exitCode: 0 = no difference, 2 = a non-empty diff.
      if (result.exitCode === 0) {
        console.log(`no changes (schema-engine-wasm ${version()}, ${existing.length} migration(s) applied)`);
        return;
      }
      const script = result.stdout ?? "";

      // 4. Prisma's layout: <timestamp>_<name>/migration.sql beside migration_lock.toml.
      const file = await writeMigration(migrationsDir, slug, script);
      console.log(`wrote ${path.relative(cwd, file)}`);
      // `migrate dev` would prepend data-loss warnings; the diff entry point does not compute them.
      if (/\bDROP (TABLE|COLUMN|TYPE)\b|\bALTER COLUMN .* (SET DATA )?TYPE\b/.test(script)) {
        console.log("note: this migration drops or retypes tables, columns or enums; review it for data loss");
      }
    } finally {
      engine?.free();
      await pool?.end().catch(() => {});
    }
  });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message || error.name : String(error);
  // Engine errors carry a Rust span trace ("   0: sql_schema_connector::..."); keep the message only.
  console.error(`db:diff failed: ${message.split(/\n\s+0: /)[0].trim()}`);
  process.exitCode = 1;
});
