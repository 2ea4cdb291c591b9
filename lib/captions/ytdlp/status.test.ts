import { describe, expect, it } from "vitest";

import {
  ageInDays,
  lastYtDlpStatus,
  parseVerboseHeader,
  startupLine,
  statusFrom,
  versionDate,
  ytdlpHealthFields,
  ytdlpProbeDue,
  ytdlpStatus,
  type YtDlpStatus,
} from "./status";

// The header of `yt-dlp -v` 2026.08.19 (pip) with the npm-installed deno, as it prints it.
const HEADER = `[debug] Command-line config: ['--ignore-config', '--no-js-runtimes', '--js-runtimes', 'deno:/app/node_modules/@deno/linux-x64-glibc/deno', '-v', '--list-impersonate-targets']
[debug] Encodings: locale UTF-8, fs utf-8, pref UTF-8, out utf-8 (No ANSI), error utf-8 (No ANSI), screen utf-8 (No ANSI)
[debug] yt-dlp version stable@2026.08.19 from yt-dlp/yt-dlp [594bd50c2] (pip)
[debug] Python 3.11.7 (CPython x86_64 64bit) - Linux-6.18.44-x86_64-with-glibc2.36 (OpenSSL 3.0.19 27 Jan 2026, glibc 2.36)
[debug] exe versions: ffmpeg 7.1 (setts), ffprobe 7.1
[debug] Optional libraries: certifi-2026.07.22, sqlite3-3.40.1, yt_dlp_ejs-0.8.0
[debug] JS runtimes: deno-2.9.6
[debug] Proxy map: {'all': 'http://127.0.0.1:41234'}
[debug] Request Handlers: urllib`;

const NOW = new Date("2026-11-23T16:00:00Z");

describe("parseVerboseHeader", () => {
  it("reads the version, the JS runtimes and the optional libraries", () => {
    expect(parseVerboseHeader(HEADER)).toEqual({
      version: "2026.08.19",
      jsRuntimes: ["deno-2.9.6"],
      optionalLibraries: ["certifi-2026.07.22", "sqlite3-3.40.1", "yt_dlp_ejs-0.8.0"],
    });
  });

  it("says none where yt-dlp found none, and no version where it did not run", () => {
    const bare = HEADER.replace("deno-2.9.6", "none").replace(
      /Optional libraries: .*/,
      "Optional libraries: sqlite3-3.40.1",
    );
    expect(parseVerboseHeader(bare)).toMatchObject({ jsRuntimes: [], optionalLibraries: ["sqlite3-3.40.1"] });
    expect(parseVerboseHeader(HEADER.replace("deno-2.9.6", "none (disabled)")).jsRuntimes).toEqual([]);
    expect(parseVerboseHeader("")).toEqual({ version: null, jsRuntimes: [], optionalLibraries: [] });
    expect(
      parseVerboseHeader("[debug] yt-dlp version nightly@2026.09.01.232511 from yt-dlp/yt-dlp-nightly-builds").version,
    ).toBe("2026.09.01.232511");
  });
});

describe("the version's age", () => {
  it("is the days since the date the version is named after", () => {
    expect(versionDate("2026.08.19")?.toISOString()).toBe("2026-08-19T00:00:00.000Z");
    expect(versionDate("2026.9.1.232511")?.toISOString()).toBe("2026-09-01T00:00:00.000Z");
    expect(ageInDays("2026.08.19", NOW)).toBe(96);
    expect(ageInDays("2026.11.23", NOW)).toBe(0);
    expect(versionDate("master")).toBeNull();
  });
});

describe("statusFrom", () => {
  it("takes yt-dlp-ejs as the solver when yt-dlp lists it", () => {
    expect(statusFrom(parseVerboseHeader(HEADER), false, NOW)).toEqual({
      version: "2026.08.19",
      ageDays: 96,
      jsRuntime: "deno-2.9.6",
      solver: "yt-dlp-ejs 0.8.0",
      problems: [],
    });
  });

  it("takes yt-dlp's deno script when its npm packages are in deno's cache", () => {
    const header = { version: "2026.08.19", jsRuntimes: ["deno-2.9.6"], optionalLibraries: ["sqlite3-3.40.1"] };
    expect(statusFrom(header, true, NOW)).toMatchObject({ solver: "deno npm cache", problems: [] });
    const missing = statusFrom(header, false, NOW);
    expect(missing.solver).toBeNull();
    expect(missing.problems.join()).toMatch(/no YouTube challenge solver.*npm run ytdlp:update/);
  });

  it("names a missing runtime, and a yt-dlp that does not run", () => {
    const noRuntime = statusFrom(
      { version: "2026.08.19", jsRuntimes: [], optionalLibraries: ["yt_dlp_ejs-0.8.0"] },
      false,
      NOW,
    );
    expect(noRuntime).toMatchObject({ jsRuntime: null, solver: "yt-dlp-ejs 0.8.0" });
    expect(noRuntime.problems).toEqual([expect.stringMatching(/no JavaScript runtime.*deno/)]);
    // The npm cache is deno's: with another runtime it solves nothing.
    expect(
      statusFrom({ version: "2026.08.19", jsRuntimes: ["node-22.1.0"], optionalLibraries: [] }, true, NOW).solver,
    ).toBeNull();
    const absent = statusFrom({ version: null, jsRuntimes: [], optionalLibraries: [] }, false, NOW);
    expect(absent).toMatchObject({ version: null, ageDays: null });
    expect(absent.problems).toEqual([expect.stringMatching(/could not be run.*YTDLP_PATH/)]);
  });
});

describe("/health's yt-dlp fields", () => {
  const ready: YtDlpStatus = {
    version: "2026.08.19",
    ageDays: 96,
    jsRuntime: "deno-2.9.6",
    solver: "deno npm cache",
    problems: [],
  };

  it("are the version, its age, the runtime and the solver, as strings", () => {
    expect(ytdlpHealthFields(ready)).toEqual({
      ytdlp: "2026.08.19",
      ytdlp_age_days: "96",
      ytdlp_js_runtime: "deno-2.9.6",
      ytdlp_challenge_solver: "deno npm cache",
    });
  });

  it("say missing, with a note on what to do, when something is", () => {
    const fields = ytdlpHealthFields({
      ...ready,
      jsRuntime: null,
      solver: null,
      problems: ["no runtime", "no solver"],
    });
    expect(fields).toMatchObject({
      ytdlp_js_runtime: "missing",
      ytdlp_challenge_solver: "missing",
      ytdlp_note: "no runtime; no solver",
    });
    expect(ytdlpHealthFields({ version: null, ageDays: null, jsRuntime: null, solver: null, problems: ["x"] })).toEqual(
      {
        ytdlp: "missing",
        ytdlp_js_runtime: "missing",
        ytdlp_challenge_solver: "missing",
        ytdlp_note: "x",
      },
    );
    expect(ytdlpHealthFields(null)).toEqual({ ytdlp: "checking" });
  });

  it("match the start-up line: info when all is there, a warning naming the gap otherwise", () => {
    expect(startupLine(ready)).toEqual({
      level: "info",
      message:
        "yt-dlp 2026.08.19 (96 days old), JavaScript runtime deno-2.9.6, YouTube challenge solver deno npm cache",
    });
    const gap = startupLine({ ...ready, solver: null, problems: ["no solver: run `npm run ytdlp:update`"] });
    expect(gap.level).toBe("warn");
    expect(gap.message).toMatch(/solver missing: no solver: run `npm run ytdlp:update`$/);
  });
});

describe("when a probe is due (/health starts one after its answer)", () => {
  it("is before the first probe, not while one runs, and not once one has ended", async () => {
    expect(ytdlpProbeDue()).toBe(true);
    expect(lastYtDlpStatus()).toBeNull();
    const probing = ytdlpStatus("/nonexistent/yt-dlp");
    expect(ytdlpProbeDue()).toBe(false);
    const status = await probing;
    expect(status.version).toBeNull();
    expect(ytdlpProbeDue()).toBe(false);
    expect(lastYtDlpStatus()).toBe(status);
  });
});
