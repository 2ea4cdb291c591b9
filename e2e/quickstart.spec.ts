import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect, test } from "@playwright/test";
import { freePort } from "../test/free-port";

// README's Quickstart, as written there, in a fresh clone of this repository's HEAD (committed files only):
// install, build and start on the embedded defaults, then /health. npm's cache (filled by the project's own
// install) keeps the install short.

const root = path.resolve(import.meta.dirname, "..");

/** The first `sh` block of README's Quickstart section. */
function quickstartCommand(readme: string): string {
  const section = readme.split(/^## /m).find((part) => part.startsWith("Quickstart\n"));
  const block = section?.match(/```sh\n([\s\S]*?)\n```/);
  if (!block) throw new Error("README.md has no ```sh block under ## Quickstart");
  return block[1].trim();
}


test("README's first command works in a fresh clone", async () => {
  test.setTimeout(20 * 60_000);
  const command = quickstartCommand(readFileSync(path.join(root, "README.md"), "utf8"));
  expect(command).toContain("npm start");

  const dir = mkdtempSync(path.join(tmpdir(), "verbatim-quickstart-"));
  const clone = path.join(dir, "verbatim");
  execFileSync("git", ["clone", "--quiet", root, clone], { stdio: "pipe" });

  const port = await freePort();
  // A machine's environment, not this test run's: no npm_* or E2E_* variables, no settings of the app, and
  // none of this checkout's node_modules/.bin on PATH (the clone must bring its own). yt-dlp found on PATH
  // (ours, when the project has one) spares the postinstall a pip download.
  const venvBin = path.join(root, ".venv", "bin");
  const systemPath = (process.env.PATH ?? "/usr/bin:/bin").split(path.delimiter).filter((dir) => !/node_modules|node-gyp-bin/.test(dir));
  const env = {
    PATH: [...(existsSync(venvBin) ? [venvBin] : []), ...systemPath].join(path.delimiter),
    HOME: process.env.HOME ?? dir,
    LANG: process.env.LANG ?? "C.UTF-8",
    ...(process.env.CI ? { CI: process.env.CI } : {}),
    NEXT_TELEMETRY_DISABLED: "1",
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    PORT: String(port),
  };
  // Its own process group, so the whole tree (sh → npm → next) stops with it.
  const child = spawn("sh", ["-c", command], { cwd: clone, env: env as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));

  try {
    let health: { status: number; body: unknown } | undefined;
    while (!health && exited === undefined) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        health = { status: response.status, body: await response.json() };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    expect(health, `\`${command}\` ended (exit ${exited}) before /health answered:\n${log}`).toBeDefined();
    expect(health!.status, log).toBe(200);
    expect(health!.body).toMatchObject({ status: "ok", database: "ok", database_kind: "pglite" });
    // The embedded defaults put their data in the clone, nowhere else.
    expect(existsSync(path.join(clone, "data"))).toBe(true);
  } finally {
    if (exited === undefined) {
      const stopped = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (exited === undefined) process.kill(-child.pid!, "SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
