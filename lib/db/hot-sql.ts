import "server-only";
import type pg from "pg";
import { pgPool } from "@/lib/db/client";

// The few statements run on every request of the hottest paths (who is calling; a stored transcript; the
// version of a public transcript, which GET /v1/public/{slug} and its 304s ask for) go straight to pg's pool,
// the one Prisma uses, as named prepared statements (the database parses and plans each once per
// connection), on PostgreSQL and on the embedded database alike (served over the same protocol:
// lib/db/embedded-server.ts). The ORM's per-query work (several times the driver's own under load) is
// skipped, and so is loading Prisma's query compiler (once per process) for a request that needs nothing else.
// Everything else goes through Prisma.

/** `timestamp without time zone` (Prisma's DateTime): stored as UTC, read back as UTC (pg's default is local time). */
const TIMESTAMP = 1114;
const parseUtcTimestamp = (value: string) => new Date(`${value.replace(" ", "T")}Z`);

/** pg's type parsers with that one changed. */
let typeParsers: pg.CustomTypesConfig | undefined;
async function utcTypeParsers(): Promise<pg.CustomTypesConfig> {
  const { default: driver } = await import("pg");
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === TIMESTAMP && format !== "binary"
        ? parseUtcTimestamp
        : driver.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
  };
}

/**
 * Rows of `text` ($1, $2, … placeholders) with `values`. `name` identifies the statement on each
 * connection: one name, one text, for the life of the process.
 */
export async function hotQuery<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = await pgPool();
  const types = (typeParsers ??= await utcTypeParsers());
  return (await pool.query<T & pg.QueryResultRow>({ name, text, values, types })).rows;
}
