import "server-only";
import pg from "pg";
import { getDb, pgPool } from "@/lib/db/client";

// The few statements every authenticated API request runs (who is calling; a stored transcript) go
// straight to node-postgres as named prepared statements: PostgreSQL parses and plans each once per
// connection, and the ORM's per-query work (about a millisecond a query under load, several times the
// driver's own: issue 25) is skipped. Everything else goes through Prisma. With the embedded database
// (PGlite, one session shared with Prisma) they go through Prisma's raw queries, unprepared.

/** `timestamp without time zone` (Prisma's DateTime): stored as UTC, read back as UTC (pg's default is local time). */
const TIMESTAMP = 1114;
const parseUtcTimestamp = (value: string) => new Date(`${value.replace(" ", "T")}Z`);

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP && format !== "binary"
      ? parseUtcTimestamp
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Rows of `text` ($1, $2, … placeholders) with `values`. `name` identifies the statement on each
 * connection: one name, one text, for the life of the process.
 */
export async function hotQuery<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = await pgPool();
  if (!pool) return (await getDb()).$queryRawUnsafe<T[]>(text, ...values);
  const result = await pool.query<T & pg.QueryResultRow>({ name, text, values, types: typeParsers });
  return result.rows;
}
