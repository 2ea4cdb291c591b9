// Figures for OAuth: POST /oauth/token refresh grants per second on the built server
// (PostgreSQL), each a real rotation (look up, mark used, issue a new pair, in one transaction), with
// /health on the same server for scale. Refresh tokens are single-use, so every request carries a fresh
// one: 100,000 are seeded with one INSERT … SELECT generate_series (hashes by PostgreSQL's sha256()).
import autocannon from "autocannon";
import pg from "pg";
import { createMigratedTestDatabase } from "../../test/pg";
import { requestsPerSecond, startApp } from "./server";

const TOKENS = 100_000;
const CLIENT = "vci_bench";

async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('bench-user', 'bench@example.test', now())`,
    );
    await client.query(
      `INSERT INTO "OAuthClient" ("id", "name", "redirectUris") VALUES ($1, 'Bench', ARRAY['http://127.0.0.1/cb'])`,
      [CLIENT],
    );
    await client.query(
      `INSERT INTO "OAuthToken" ("id", "accessTokenHash", "refreshTokenHash", "clientId", "userId", "scope", "resource", "accessExpiresAt", "refreshExpiresAt", "familyId")
       SELECT 'bench-' || i, encode(sha256(('vat_bench_' || i)::bytea), 'hex'), encode(sha256(('vrt_bench_' || i)::bytea), 'hex'), $1, 'bench-user', 'api',
              'http://localhost:3000/v1', now() + interval '1 hour', now() + interval '30 days', 'family-' || i
       FROM generate_series(1, ${TOKENS}) AS i`,
      [CLIENT],
    );
    await client.query(`ANALYZE "OAuthToken"`);
  } finally {
    await client.end();
  }
}

/** Refresh grants per second, 10 connections, each request with the next unused refresh token. */
async function refreshGrantsPerSecond(url: string, next: () => number, seconds: number): Promise<number> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        setupRequest: (request) => ({
          ...request,
          body: `grant_type=refresh_token&client_id=${CLIENT}&refresh_token=vrt_bench_${next()}`,
        }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchOauth(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  try {
    await seed(database.url);
    const app = await startApp(4905, {
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    });
    try {
      let used = 0;
      const next = () => {
        used += 1;
        if (used > TOKENS) throw new Error("out of seeded refresh tokens");
        return used;
      };
      const token = `${app.baseUrl}/oauth/token`;
      await requestsPerSecond(`${app.baseUrl}/health`, {}, 2); // warm-up
      await refreshGrantsPerSecond(token, next, 2);
      const health = await requestsPerSecond(`${app.baseUrl}/health`);
      const refresh = await refreshGrantsPerSecond(token, next, 10);
      return {
        "GET /health requests/s (same server)": health,
        "POST /oauth/token refresh_token grants/s (rotation)": refresh,
      };
    } finally {
      await app.stop();
    }
  } finally {
    await database.drop();
  }
}
