import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../test/free-port";

const root = path.resolve(import.meta.dirname, "..");

describe("npm run doctor", () => {
  it("prints its checks and nothing else on standard output: no log line of the app among them", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-doctor-"));
    // Nothing listens there: the network probes fail at once instead of waiting on DNS or the internet.
    const closed = `http://127.0.0.1:${await freePort()}`;
    try {
      const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/doctor.ts"], {
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
