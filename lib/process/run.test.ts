import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, describe, expect, it } from "vitest";

import { toolSearchPath } from "./media-tools";
import { runTool, ToolStartError } from "./run";

const node = process.execPath;
const tmp = mkdtempSync(path.join(tmpdir(), "process-run-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Alive and not a zombie (an orphan killed in a container may wait a while for PID 1 to reap it). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (pids.every((p) => !isRunning(p))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** A child that starts a sleeping grandchild, writes both pids to `file`, and sleeps. */
const HANG = `
const { spawn } = require("node:child_process");
const { writeFileSync } = require("node:fs");
const g = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { stdio: "ignore" });
writeFileSync(process.argv[1], JSON.stringify([process.pid, g.pid]));
setTimeout(() => {}, 600000);
`;

describe("runTool", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  });

  it("gives the child a minimal environment: none of the server's secrets or proxy settings", async () => {
    process.env.STRIPE_SECRET_KEY = "sk_test_never_in_a_child";
    process.env.DATABASE_URL = "postgres://user:pw@db/verbatim";
    process.env.AUTH_SECRET = "a-session-secret";
    process.env.HTTPS_PROXY = "http://proxy.example:3128";
    const r = await runTool(node, ["-e", "process.stdout.write(JSON.stringify(process.env))"], {
      timeoutMs: 30_000,
      env: { EXTRA: "1" },
    });
    expect(r).toMatchObject({ code: 0, failure: null });
    const env = JSON.parse(r.stdout) as Record<string, string>;
    expect(env).not.toHaveProperty("STRIPE_SECRET_KEY");
    expect(env).not.toHaveProperty("DATABASE_URL");
    expect(env).not.toHaveProperty("AUTH_SECRET");
    expect(env).not.toHaveProperty("HTTPS_PROXY");
    expect(Object.values(env).join("\n")).not.toContain("sk_test_never_in_a_child");
    expect(env.EXTRA).toBe("1");
    // The server's PATH, then the npm-installed ffmpeg/ffprobe (./media-tools.ts).
    expect(env.PATH).toBe(toolSearchPath(process.env.PATH));
    expect(env.PATH.startsWith(`${process.env.PATH}:`)).toBe(true);
  });

  it("kills the child and its whole process group at the deadline", async () => {
    const pidfile = path.join(tmp, "hang.json");
    const r = await runTool(node, ["-e", HANG, pidfile], { timeoutMs: 1_000 });
    expect(r).toMatchObject({ code: null, failure: "timeout" });
    const pids = JSON.parse(readFileSync(pidfile, "utf8")) as number[];
    expect(pids).toHaveLength(2);
    expect(await gone(pids)).toBe(true);
  });

  it("kills the process group when the caller aborts, and rejects with the caller's reason", async () => {
    const pidfile = path.join(tmp, "abort.json");
    const ac = new AbortController();
    const run = runTool(node, ["-e", HANG, pidfile], { timeoutMs: 60_000, signal: ac.signal });
    for (let i = 0; i < 100; i++) {
      try {
        readFileSync(pidfile);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    ac.abort(new Error("client went away"));
    await expect(run).rejects.toThrow("client went away");
    expect(await gone(JSON.parse(readFileSync(pidfile, "utf8")) as number[])).toBe(true);
  });

  it("stops a child whose stdout passes the cap, and says so", async () => {
    const flood = `const c = "x".repeat(65536); const w = () => { while (process.stdout.write(c)); process.stdout.once("drain", w); }; w();`;
    const r = await runTool(node, ["-e", flood], { timeoutMs: 30_000, maxStdoutBytes: 256 * 1024 });
    expect(r.failure).toBe("stdout_too_large");
    expect(r.code).toBeNull();
    expect(r.stdout).toBe(""); // nothing half-read is handed on
  });

  it("keeps only the tail of stderr", async () => {
    const noisy = `for (let i = 0; i < 5000; i++) process.stderr.write("frame " + i + " damaged\\n"); process.stderr.write("the real error\\n"); process.exitCode = 3;`;
    const r = await runTool(node, ["-e", noisy], { timeoutMs: 30_000, stderrTailChars: 1024 });
    expect(r.code).toBe(3);
    expect(r.stderrTail.length).toBeLessThanOrEqual(1024);
    expect(r.stderrTail.endsWith("the real error")).toBe(true);
  });

  it("streams stdout line by line", async () => {
    const lines: string[] = [];
    const r = await runTool(node, ["-e", `process.stdout.write("a\\r\\nb\\nc")`], {
      timeoutMs: 30_000,
      onStdoutLine: (l) => lines.push(l),
    });
    expect(r.code).toBe(0);
    expect(lines).toEqual(["a", "b", "c"]);
  });

  it("passes arguments as they are, without a shell", async () => {
    const r = await runTool(
      node,
      ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", "$(id)", "`id`; rm -rf /", "a b"],
      { timeoutMs: 30_000 },
    );
    expect(JSON.parse(r.stdout)).toEqual(["$(id)", "`id`; rm -rf /", "a b"]);
  });

  it("reports a binary that cannot be started", async () => {
    const run = runTool(path.join(tmp, "no-such-tool"), [], { timeoutMs: 30_000 });
    await expect(run).rejects.toBeInstanceOf(ToolStartError);
    await expect(run).rejects.toMatchObject({ errno: "ENOENT" });
  });
});
