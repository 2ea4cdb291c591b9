import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_DIR_LOCK_FILE } from "@/lib/db/data-dir-lock";
import { entryArgs, SHORT_LIVED_WASM } from "../test/entry-bundles";
import { freePort } from "../test/free-port";
import { seedEmbeddedDataDir } from "../test/shared-fixtures";

const root = path.resolve(import.meta.dirname, "..");

describe("npm run doctor", () => {
  it("prints its checks and nothing else on standard output: no log line of the app among them", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-doctor-"));
    await seedEmbeddedDataDir(dataDir);
    // Nothing listens there: the network probes fail at once instead of waiting on DNS or the internet.
    const closed = `http://127.0.0.1:${await freePort()}`;
    try {
      const run = spawnSync(process.execPath, [...SHORT_LIVED_WASM, ...entryArgs("scripts/doctor.ts")], {
        cwd: root,
        encoding: "utf8",
        timeout: 150_000,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: dataDir,
          YOUTUBE_BASE_URL: closed,
          ASR_LOCAL_MODEL_BASE_URL: closed,
        } as unknown as NodeJS.ProcessEnv,
      });
      const lines = run.stdout.split("\n").filter(Boolean);
      expect(lines[0], run.stderr).toMatch(/^Verbatim at .*, embedded database under /);
      expect(run.stdout).toMatch(/^✓ database\s+pglite answers$/m);
      // Each line after the first is a check (✓ ✗ ‒) or the indented fix under one.
      for (const line of lines.slice(1)) expect(line).toMatch(/^([✓✗‒] \w|\s+→ )/);
      // The embedded database's "open" line is info: not written at all.
      expect(run.stderr).not.toContain("embedded database open");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("npm run doctor while the app runs on the embedded database", () => {
  it("says the app holds the database, on which port, and that it is healthy, without opening the folder", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-doctor-"));
    // The running app: its lock in the folder (this test's process, which is running and not the doctor), and
    // its /health on the port the lock names.
    const app = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(request.url === "/health" ? { status: "ok", database: "ok" } : {}));
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    const port = (app.address() as { port: number }).port;
    writeFileSync(
      path.join(dataDir, DATA_DIR_LOCK_FILE),
      JSON.stringify({ pid: process.pid, port, hostname: os.hostname(), since: new Date().toISOString() }),
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    try {
      const doctor = spawn(process.execPath, [...SHORT_LIVED_WASM, ...entryArgs("scripts/doctor.ts")], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: dataDir,
          YOUTUBE_BASE_URL: closed,
          ASR_LOCAL_MODEL_BASE_URL: closed,
        } as unknown as NodeJS.ProcessEnv,
      });
      let stdout = "";
      doctor.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      // Not spawnSync: this process answers the doctor's /health request meanwhile.
      await new Promise((resolve) => doctor.once("exit", resolve));
      expect(stdout).toMatch(
        new RegExp(
          `^✓ database\\s+the running app \\(pid ${process.pid}, port ${port}\\) holds the embedded database, healthy \\(its /health: database ok\\)$`,
          "m",
        ),
      );
      expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
    } finally {
      app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
