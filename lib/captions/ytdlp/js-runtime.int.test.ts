/**
 * The REAL yt-dlp (.venv/bin/yt-dlp) run the way the app runs it (runYtDlp: buildArgs, the runner's
 * environment, lib/process) finds the npm-installed deno as its JavaScript runtime, and YouTube's
 * challenge solver is in place (scripts/install-yt-dlp.sh: yt-dlp-ejs, or the npm packages yt-dlp's own
 * deno script imports, in deno's cache). Nothing here reaches YouTube: no solving is exercised.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { runTool } from "@/lib/process/run";

import { createOutbound } from "@/lib/http/outbound";

import { denoBinary, denoEnv } from "./js-runtime";
import { resolveYtDlpBinary, runYtDlp } from "./run";
import { parseVerboseHeader, probeYtDlp } from "./status";

const outbound = createOutbound({ defaults: { retries: 0 } });
afterAll(() => outbound.close());

describe("yt-dlp -v as the app runs it", () => {
  it("reports the npm-installed deno as its JavaScript runtime, behind our guarded proxy", async () => {
    const deno = denoBinary();
    expect(deno, "the npm package deno is installed").not.toBeNull();
    const { stderr, args } = await runYtDlp(["-v", "--list-impersonate-targets"], { outbound, timeoutMs: 60_000 });
    expect(args).toEqual(
      expect.arrayContaining(["--no-js-runtimes", "--js-runtimes", `deno:${deno}`, "--no-remote-components"]),
    );

    const header = parseVerboseHeader(stderr);
    expect(header.version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
    expect(header.jsRuntimes).toEqual([expect.stringMatching(/^deno-\d+\.\d+/)]);
    // yt-dlp hands its proxy to deno (HTTP(S)_PROXY): the guard's, the only way out for both.
    const proxy = await outbound.toolProxyUrl();
    expect(stderr).toMatch(
      new RegExp(`\\[debug\\] Proxy map: \\{'all': '${proxy.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'\\}`),
    );
  });

  it("has YouTube's challenge solver, so the start-up line and /health report nothing missing", async () => {
    const status = await probeYtDlp();
    expect(status.jsRuntime).toMatch(/^deno-/);
    expect(status.solver).toMatch(/^(yt-dlp-ejs \S+|deno npm cache)$/);
    expect(status.problems).toEqual([]);
    expect(status.ageDays).toBeGreaterThanOrEqual(0);
  });

  it("reports no runtime when none is handed over, and says so", async () => {
    const { stderr } = await runYtDlp(["-v", "--no-js-runtimes", "--list-impersonate-targets"], {
      outbound,
      timeoutMs: 60_000,
    });
    expect(parseVerboseHeader(stderr).jsRuntimes).toEqual([]);
  });
});

/** The options yt-dlp itself starts deno with (`_DENO_BASE_OPTIONS` in its deno.py), read from the installed yt-dlp. */
function ytdlpDenoOptions(): string[] {
  const lib = path.join(path.dirname(path.dirname(resolveYtDlpBinary())), "lib");
  const python = readdirSync(lib).find((d) => d.startsWith("python"))!;
  const source = readFileSync(
    path.join(lib, python, "site-packages", "yt_dlp", "extractor", "youtube", "jsc", "_builtin", "deno.py"),
    "utf8",
  );
  const list = /_DENO_BASE_OPTIONS = \[([^\]]*)\]/.exec(source)?.[1] ?? "";
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

describe("deno as yt-dlp runs it", () => {
  it("gives the solver script no network: a connection to a listening local server is refused by deno, never made", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "deno-sandbox-"));
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("x");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const options = ytdlpDenoOptions();
      expect(options).toContain("--no-remote");
      expect(options.some((o) => o.startsWith("--allow"))).toBe(false);
      const port = (server.address() as AddressInfo).port;
      const script = path.join(dir, "solver.js");
      writeFileSync(
        script,
        `try { await fetch("http://127.0.0.1:${port}/"); console.log("reached"); } catch (e) { console.log(e.name); }`,
      );
      const result = await runTool(denoBinary()!, ["run", ...options, "--cached-only", script], {
        timeoutMs: 60_000,
        env: denoEnv(),
      });
      expect(result.stdout.trim()).toBe("NotCapable");
      expect(hits).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
