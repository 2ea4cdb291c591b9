/**
 * What the installed yt-dlp can do, as yt-dlp itself says it: its version (and so its age: YouTube breaks
 * old ones), whether it found the JavaScript runtime, and whether YouTube's challenge solver is there.
 * Probed by running it the way every other run goes (runYtDlp: same arguments, same environment) with
 * `-v --list-impersonate-targets`, which prints the debug header and exits 0 without touching the network.
 * The solver is yt-dlp-ejs (listed among yt-dlp's optional libraries), else yt-dlp's own deno script whose
 * npm imports must be in deno's cache: checked by running that script the way yt-dlp runs it.
 *
 *   const s = await ytdlpStatus();   // cached for STATUS_TTL_MS; /health, /metrics and the start-up line
 */
import { readdirSync } from "node:fs";
import path from "node:path";

import { runTool } from "@/lib/process/run";

import { denoBinary, denoCacheDir, denoEnv } from "./js-runtime";
import { keepProbe, STATUS_TTL_MS, type YtDlpStatus } from "./last-status";
import { filesKey, probeRecordFile, recallProbe, recordProbe } from "./probe-record";
import { resolveYtDlpBinary, runYtDlp } from "./run";

export { lastYtDlpStatus, STATUS_TTL_MS, ytdlpHealthFields, ytdlpProbeDue, type YtDlpStatus } from "./last-status";

const PROBE_TIMEOUT_MS = 30_000;
const DAY_MS = 86_400_000;

export interface VerboseHeader {
  version: string | null;
  jsRuntimes: string[];
  optionalLibraries: string[];
}

/** The lines of yt-dlp's `-v` header that matter here. */
export function parseVerboseHeader(stderr: string): VerboseHeader {
  const line = (label: string) => new RegExp(`^\\[debug\\] ${label}: (.*)$`, "m").exec(stderr)?.[1]?.trim() ?? null;
  // "none", or "none (disabled)" after --no-js-runtimes alone.
  const list = (value: string | null) =>
    value === null || /^none\b/.test(value) ? [] : value.split(/,\s*/).filter(Boolean);
  const version = /^\[debug\] yt-dlp version (?:[\w-]+@)?(\d{4}\.\d{2}\.\d{2}(?:\.\d+)?)/m.exec(stderr)?.[1] ?? null;
  return { version, jsRuntimes: list(line("JS runtimes")), optionalLibraries: list(line("Optional libraries")) };
}

/** yt-dlp's versions are release dates: "2026.08.19" (or a nightly "2026.08.19.123456") → that day, UTC. */
export function versionDate(version: string): Date | null {
  const m = /^(\d{4})\.(\d{1,2})\.(\d{1,2})/.exec(version);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function ageInDays(version: string, now: Date = new Date()): number | null {
  const date = versionDate(version);
  return date ? Math.max(0, Math.floor((now.getTime() - date.getTime()) / DAY_MS)) : null;
}

const UPDATE_HINT = "run `npm run ytdlp:update`";

/** The status from the header and the deno-cache check (pure, for tests). */
export function statusFrom(header: VerboseHeader, denoCacheReady: boolean, now: Date = new Date()): YtDlpStatus {
  const ejs = header.optionalLibraries.find((l) => /^yt[_-]dlp[_-]ejs-/i.test(l));
  const jsRuntime = header.jsRuntimes[0] ?? null;
  const solver = ejs
    ? `yt-dlp-ejs ${ejs.replace(/^yt[_-]dlp[_-]ejs-/i, "")}`
    : jsRuntime?.startsWith("deno") && denoCacheReady
      ? "deno npm cache"
      : null;
  const problems: string[] = [];
  if (!header.version) problems.push(`yt-dlp could not be run: ${UPDATE_HINT} (or set YTDLP_PATH)`);
  else {
    if (!jsRuntime)
      problems.push(
        "yt-dlp has no JavaScript runtime: YouTube audio downloads fail (`npm install` brings deno; an optional dependency, so check that it installed)",
      );
    if (!solver)
      problems.push(
        `yt-dlp has no YouTube challenge solver (yt-dlp-ejs, or its npm packages in deno's cache): YouTube audio downloads fail; ${UPDATE_HINT}`,
      );
  }
  return {
    version: header.version,
    ageDays: header.version ? ageInDays(header.version, now) : null,
    jsRuntime,
    solver,
    problems,
  };
}

/** The site-packages folder of the Python install yt-dlp runs from (<prefix>/bin and <prefix>/lib), or null. */
function sitePackages(ytdlp: string): string | null {
  if (!path.isAbsolute(ytdlp)) return null;
  const lib = path.join(path.dirname(path.dirname(ytdlp)), "lib");
  try {
    for (const python of readdirSync(lib).filter((d) => d.startsWith("python"))) {
      const folder = path.join(lib, python, "site-packages");
      if (readdirSync(folder).includes("yt_dlp")) return folder;
    }
  } catch {
    // not a layout we know
  }
  return null;
}

/** yt-dlp's deno solver script beside the yt-dlp it runs. */
function denoSolverScript(ytdlp: string): string | null {
  const packages = sitePackages(ytdlp);
  if (!packages) return null;
  const vendor = path.join(packages, "yt_dlp", "extractor", "youtube", "jsc", "_builtin", "vendor");
  try {
    return readdirSync(vendor).includes("yt.solver.deno.lib.js") ? path.join(vendor, "yt.solver.deno.lib.js") : null;
  } catch {
    return null;
  }
}

/** Whether deno can run that script from its cache alone, with the options yt-dlp runs it with. */
async function denoCacheReady(binary: string | undefined): Promise<boolean> {
  const deno = denoBinary();
  const script = denoSolverScript(resolveYtDlpBinary(binary));
  if (!deno || !script) return false;
  const args = [
    "run",
    "--cached-only",
    "--no-remote",
    "--no-prompt",
    "--no-config",
    "--no-lock",
    "--node-modules-dir=none",
    "--no-code-cache",
    script,
  ];
  try {
    const result = await runTool(deno, args, { timeoutMs: PROBE_TIMEOUT_MS, env: denoEnv() });
    return result.code === 0;
  } catch {
    return false;
  }
}

/** What a probe finds: yt-dlp's header, and whether deno can run yt-dlp's solver from its cache. */
interface ProbeFindings {
  header: VerboseHeader;
  denoCacheReady: boolean;
}

async function runProbe(binary: string | undefined): Promise<ProbeFindings> {
  let header: VerboseHeader = { version: null, jsRuntimes: [], optionalLibraries: [] };
  try {
    const { stderr } = await runYtDlp(["-v", "--list-impersonate-targets"], { binary, timeoutMs: PROBE_TIMEOUT_MS });
    header = parseVerboseHeader(stderr);
  } catch {
    // not installed or broken: the status says so
  }
  const ejs = header.optionalLibraries.some((l) => /^yt[_-]dlp[_-]ejs-/i.test(l));
  return { header, denoCacheReady: !ejs && header.version !== null && (await denoCacheReady(binary)) };
}

/** Runs the probe now. */
export async function probeYtDlp(opts: { binary?: string; now?: Date } = {}): Promise<YtDlpStatus> {
  const { header, denoCacheReady } = await runProbe(opts.binary);
  return statusFrom(header, denoCacheReady, opts.now);
}

/** A record's findings as this module wrote them (an older or damaged record is probed again). */
function isFindings(value: unknown): value is ProbeFindings {
  const findings = value as ProbeFindings | null;
  const header = findings?.header;
  return (
    typeof findings?.denoCacheReady === "boolean" &&
    (header?.version === null || typeof header?.version === "string") &&
    Array.isArray(header?.jsRuntimes) &&
    Array.isArray(header?.optionalLibraries)
  );
}

/**
 * The status of the project's own yt-dlp as another process of this install (in `cwd`) recorded it within
 * STATUS_TTL_MS (probe-record.ts), else a probe's, recorded for the next. Any other yt-dlp is probed.
 */
export async function recordedYtDlpStatus(binary?: string, cwd: string = process.cwd()): Promise<YtDlpStatus> {
  const ytdlp = resolveYtDlpBinary(binary, cwd);
  const file = probeRecordFile(ytdlp, cwd);
  if (!file) return probeYtDlp({ binary });
  const packages = sitePackages(ytdlp);
  const key = filesKey([
    ytdlp,
    packages,
    packages && path.join(packages, "yt_dlp", "version.py"),
    denoBinary(),
    denoCacheDir(cwd),
  ]);
  const recalled = recallProbe(file, key, STATUS_TTL_MS);
  let findings: ProbeFindings;
  if (isFindings(recalled)) findings = recalled;
  else {
    findings = await runProbe(ytdlp);
    recordProbe(file, key, findings);
  }
  return statusFrom(findings.header, findings.denoCacheReady);
}

/** The probe's answer, at most STATUS_TTL_MS old (an update with `npm run ytdlp:update` shows within that). */
export function ytdlpStatus(binary?: string): Promise<YtDlpStatus> {
  return keepProbe(() => recordedYtDlpStatus(binary));
}

/** The one start-up line: what yt-dlp has, or what it lacks and what to do (a warning then). */
export function startupLine(status: YtDlpStatus): { level: "info" | "warn"; message: string } {
  const age = status.ageDays === null ? "" : ` (${status.ageDays} days old)`;
  const what = `yt-dlp ${status.version ?? "missing"}${age}, JavaScript runtime ${status.jsRuntime ?? "missing"}, YouTube challenge solver ${status.solver ?? "missing"}`;
  return status.problems.length > 0
    ? { level: "warn", message: `${what}: ${status.problems.join("; ")}` }
    : { level: "info", message: what };
}

/** Probes at start (so /health has the answer by its first request) and logs startupLine. */
export async function reportYtDlpAtStart(
  logger: { info(msg: string): void; warn(msg: string): void },
  binary?: string,
): Promise<void> {
  const line = startupLine(await ytdlpStatus(binary));
  logger[line.level](line.message);
}
