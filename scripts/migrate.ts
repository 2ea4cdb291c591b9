// `npm run db:migrate`: applies prisma/migrations to the PostgreSQL database at DATABASE_URL.
// (The embedded PGlite database is migrated by the app itself at start.)
import pg from "pg";
import { applyMigrations, pgExecutor } from "../lib/db/migrate";

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (the embedded database is migrated by the app at start)");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { applied, skipped } = await applyMigrations(pgExecutor(client), { log: (line) => console.log(line) });
    console.log(
      applied.length === 0
        ? `Database is up to date (${skipped.length} migration(s) already applied).`
        : `Applied ${applied.length} migration(s): ${applied.join(", ")}`,
    );
    // pgvector may have come to the server after its migration ran (prisma/sql/functions/verbatim_vector_setup.sql).
    const [{ vectors }] = (await client.query<{ vectors: boolean }>(`SELECT verbatim_vector_setup() AS vectors`)).rows;
    console.log(
      vectors
        ? "Search by meaning: pgvector's HNSW index."
        : "Search by meaning: bounded candidates (this PostgreSQL has no pgvector 0.7 or newer).",
    );
  } finally {
    await client.end();
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

main().catch((error: unknown) => {
  console.error(`db:migrate failed: ${describe(error).split("\n")[0]}`);
  process.exitCode = 1;
});
