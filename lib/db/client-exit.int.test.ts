import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { entryArgs, SHORT_LIVED_WASM } from "../../test/entry-bundles";
import { seedEmbeddedDataDir } from "../../test/shared-fixtures";

const run = promisify(execFile);

describe("the embedded database when the app process exits", () => {
  let dataDir: string;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("is shut down cleanly, so the next start does not run crash recovery", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "verbatim-exit-"));
    await seedEmbeddedDataDir(dataDir);
    const { stdout, stderr } = await run(
      process.execPath,
      [...SHORT_LIVED_WASM, ...entryArgs("test/fixtures/open-embedded-and-exit.ts")],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
        } as unknown as NodeJS.ProcessEnv,
        timeout: 240_000,
      },
    );

    // A clean stop is quiet: at LOG_LEVEL=warn, no warning (the connection the stop ends is no lost connection)
    // and no error.
    expect(`${stdout}${stderr}`).toBe("");
    // The thread stopped its server (which removes the socket file) before the process ended.
    expect(existsSync(path.join(dataDir, "socket", ".s.PGSQL.5432"))).toBe(false);
    expect(existsSync(path.join(dataDir, "socket"))).toBe(true);

    const messages: string[] = [];
    const collect = (line: string) => (messages.push(line), false);
    const reopened = await PGlite.create({
      dataDir: path.join(dataDir, "pglite"),
      onStderr: collect,
      onStdout: collect,
    });
    try {
      expect((await reopened.query(`SELECT id FROM "ExitProbe"`)).rows).toEqual([{ id: 1 }]);
      expect(messages.join("\n")).not.toMatch(/not properly shut down|automatic recovery/);
    } finally {
      await reopened.close();
    }
  }, 300_000);
});
