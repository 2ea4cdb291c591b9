// The current definition of each database function, trigger and view lives in a file of its own under
// prisma/sql (functions/<name>.sql, triggers/<name>.sql, views/<name>.sql), as one CREATE OR REPLACE
// statement; the migrations under prisma/migrations stay their committed history. Two things read both:
// `npm run db:sql -- --name <name>` writes a migration of the files that differ from what the migrations
// create, and sql-definitions.int.test.ts fails while any does. Both compare what PostgreSQL itself prints
// (pg_get_functiondef, pg_get_triggerdef, pg_get_viewdef) for a database migrated from the history, before
// and after running the files in a transaction that is rolled back: a file that changes nothing agrees,
// whatever its spacing or comments outside a function's body (docs/decisions/0012-sql-objects-have-one-file-each.md).
import "server-only";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlExecutor } from "@/lib/db/migrate";

/** The folders of prisma/sql, in the order their files can be created: a view may call a function, a trigger runs one. */
export const SQL_OBJECT_KINDS = ["functions", "views", "triggers"] as const;
export type SqlObjectKind = (typeof SQL_OBJECT_KINDS)[number];

export interface SqlDefinitionFile {
  kind: SqlObjectKind;
  /** The object's name: the file's name without `.sql`. */
  name: string;
  /** Relative to the definitions folder: `functions/verbatim_segments.sql`. */
  file: string;
  sql: string;
}

export interface DatabaseObject {
  kind: SqlObjectKind;
  name: string;
  /** As PostgreSQL prints it. */
  definition: string;
  /** The statement that removes it. */
  drop: string;
}

/** Where the definitions live: `dir` (default prisma/sql) under process.cwd(). */
export function sqlDefinitionsDir(dir?: string): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), dir ?? "prisma/sql");
}

export async function readSqlDefinitions(dir?: string): Promise<SqlDefinitionFile[]> {
  const root = sqlDefinitionsDir(dir);
  if (!existsSync(root)) throw new Error(`SQL definitions directory not found: ${root}`);
  const files: SqlDefinitionFile[] = [];
  for (const kind of SQL_OBJECT_KINDS) {
    const folder = path.join(root, kind);
    if (!existsSync(folder)) continue;
    for (const entry of (await readdir(folder)).filter((name) => name.endsWith(".sql")).sort()) {
      files.push({
        kind,
        name: entry.slice(0, -".sql".length),
        file: `${kind}/${entry}`,
        sql: await readFile(path.join(folder, entry), "utf8"),
      });
    }
  }
  return files;
}

const key = (object: { kind: SqlObjectKind; name: string }) => `${object.kind}/${object.name}`;

/** Not the extensions' own objects (pg_trgm, btree_gin): only what the migrations define. */
const NOT_FROM_AN_EXTENSION = (catalog: string, alias: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${alias}.oid AND d.deptype = 'e')`;

const CATALOG_QUERIES: Record<SqlObjectKind, string> = {
  functions: `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition,
                     format('DROP FUNCTION IF EXISTS %s', p.oid::regprocedure) AS drop
              FROM pg_proc p
              WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind IN ('f', 'p')
                AND ${NOT_FROM_AN_EXTENSION("pg_proc", "p")}`,
  views: `SELECT c.relname AS name, pg_get_viewdef(c.oid) AS definition, format('DROP VIEW IF EXISTS %I', c.relname) AS drop
          FROM pg_class c
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'v' AND ${NOT_FROM_AN_EXTENSION("pg_class", "c")}`,
  triggers: `SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS definition,
                    format('DROP TRIGGER IF EXISTS %I ON %s', t.tgname, t.tgrelid::regclass) AS drop
             FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
             WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
};

/** Each function, view and trigger of the database's current schema, by `<kind>/<name>`. */
export async function databaseObjects(db: SqlExecutor): Promise<Map<string, DatabaseObject>> {
  const objects = new Map<string, DatabaseObject>();
  for (const kind of SQL_OBJECT_KINDS) {
    for (const row of await db.query<Omit<DatabaseObject, "kind">>(CATALOG_QUERIES[kind])) {
      const object = { kind, ...row };
      // One file per name: two functions of one name (overloads) or two triggers of one name on different
      // tables would need a file each.
      if (objects.has(key(object))) throw new Error(`two ${kind} are named ${row.name}: give each its own name`);
      objects.set(key(object), object);
    }
  }
  return objects;
}

/**
 * The files in an order they can be run in: functions, views, triggers, and within each kind a file after
 * the others of its kind whose names it mentions (a function that calls another), otherwise by name.
 */
export function inCreationOrder<T extends { kind: SqlObjectKind; name: string; sql: string }>(
  files: readonly T[],
): T[] {
  const ordered: T[] = [];
  const placed = new Set<T>();
  const visiting = new Set<T>();
  const place = (file: T, peers: T[]) => {
    if (placed.has(file) || visiting.has(file)) return;
    visiting.add(file);
    for (const other of peers)
      if (other !== file && new RegExp(`\\b${other.name}\\b`).test(file.sql)) place(other, peers);
    visiting.delete(file);
    placed.add(file);
    ordered.push(file);
  };
  for (const kind of SQL_OBJECT_KINDS) {
    const peers = files.filter((file) => file.kind === kind).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const file of peers) place(file, peers);
  }
  return ordered;
}

export interface DefinitionDrift {
  /** Files whose object the migrations define otherwise. */
  changed: SqlDefinitionFile[];
  /** Files whose object the migrations do not create. */
  added: SqlDefinitionFile[];
  /** Objects the migrations create that have no file. */
  removed: DatabaseObject[];
}

export const noDrift = (drift: DefinitionDrift) =>
  drift.changed.length === 0 && drift.added.length === 0 && drift.removed.length === 0;

/** A file that failed to run, or created something other than the object it is named after. */
export class SqlDefinitionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SqlDefinitionError";
  }
}

/**
 * How `files` differ from the functions, views and triggers of `db` (a database the migrations made).
 * Runs the files in a transaction on `db` and rolls it back.
 */
export async function definitionDrift(db: SqlExecutor, files: readonly SqlDefinitionFile[]): Promise<DefinitionDrift> {
  const before = await databaseObjects(db);
  let after: Map<string, DatabaseObject>;
  await db.query("BEGIN");
  try {
    for (const file of inCreationOrder(files)) {
      try {
        await db.exec(file.sql);
      } catch (error) {
        throw new SqlDefinitionError(
          `prisma/sql/${file.file} does not run on the migrated database: ${error instanceof Error ? error.message : String(error)}` +
            " (a change CREATE OR REPLACE cannot make, such as a function's result type or a view's columns, needs a DROP in a hand-written migration first)",
          { cause: error },
        );
      }
    }
    after = await databaseObjects(db);
  } finally {
    await db.query("ROLLBACK");
  }
  const named = new Set(files.map(key));
  const strays = [...after.keys()].filter((k) => !before.has(k) && !named.has(k));
  if (strays.length > 0)
    throw new SqlDefinitionError(
      `the files create ${strays.join(", ")}: a file's name must be the name of what it creates`,
    );
  return {
    changed: files.filter(
      (file) => before.has(key(file)) && before.get(key(file))!.definition !== after.get(key(file))?.definition,
    ),
    added: files.filter((file) => !before.has(key(file))),
    removed: [...before.values()].filter((object) => !named.has(key(object))),
  };
}

/** The migration that takes the database to the files: removed objects dropped, changed and new files run. */
export function driftMigrationSql(drift: DefinitionDrift): string {
  const drops = [...drift.removed]
    .sort((a, b) => SQL_OBJECT_KINDS.indexOf(b.kind) - SQL_OBJECT_KINDS.indexOf(a.kind))
    .map((object) => `${object.drop};`);
  const creates = inCreationOrder([...drift.changed, ...drift.added]).map(
    (file) => `-- prisma/sql/${file.file}\n${file.sql.trimEnd()}`,
  );
  return `${[...drops, ...creates].join("\n\n")}\n`;
}
