import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it, vi } from "vitest";

import { SourceError } from "@/lib/captions/types";
import { createOutbound } from "@/lib/http/outbound";
import { FAKES_DIR } from "@/test/fakes/ytdlp/server";

import { BASE_ARGS, buildArgs, errorLines, mapYtDlpError, resolveYtDlpBinary, runYtDlp, YtDlpError } from "./run";

/** Alive and not a zombie (an orphan killed in a container may wait a while for PID 1 to reap it). */
function isRunning(pid: number): boolean {
  if (existsSync("/proc")) {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const FAKE = path.join(FAKES_DIR, "fake-yt-dlp.mjs");
const tmp = mkdtempSync(path.join(tmpdir(), "ytdlp-run-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const COOKIES_HINT =
  "Use --cookies-from-browser or --cookies for the authentication. See  https://github.com/yt-dlp/yt-dlp/wiki/FAQ#how-do-i-pass-cookies-to-yt-dlp  for how to manually pass cookies";
const BUG_HINT =
  "please report this issue on  https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using  yt-dlp -U";

describe("buildArgs", () => {
  it("puts the safety flags first, the proxy next, the URL last after --", () => {
    expect(buildArgs(["-J", "--skip-download"], { url: "https://vimeo.com/1", proxyUrl: "http://proxy:3128" })).toEqual(
      [...BASE_ARGS, "--proxy", "http://proxy:3128", "-J", "--skip-download", "--", "https://vimeo.com/1"],
    );
    expect(buildArgs(["--version"])).toEqual([...BASE_ARGS, "--version"]);
  });

  it("disables the generic extractor, config files, plugins and playlists", () => {
    expect(BASE_ARGS).toEqual(expect.arrayContaining(["--ignore-config", "--no-plugin-dirs", "--no-playlist"]));
    expect(BASE_ARGS[BASE_ARGS.indexOf("--use-extractors") + 1]).toBe("default,-generic");
  });

  it("keeps a URL that looks like an option after --", () => {
    const args = buildArgs(["-J"], { url: "--exec=rm -rf /" });
    expect(args.slice(-2)).toEqual(["--", "--exec=rm -rf /"]);
  });
});

describe("resolveYtDlpBinary", () => {
  it("explicit wins, then <cwd>/.venv/bin/yt-dlp, then PATH", () => {
    expect(resolveYtDlpBinary("/opt/yt-dlp")).toBe("/opt/yt-dlp");
    expect(resolveYtDlpBinary(undefined, tmp)).toBe("yt-dlp");
    const venvDir = path.join(FAKES_DIR, "..", "..", "..");
    const resolved = resolveYtDlpBinary(undefined, venvDir);
    expect([path.join(venvDir, ".venv", "bin", "yt-dlp"), "yt-dlp"]).toContain(resolved);
  });
});

describe("mapYtDlpError: stderr lines as yt-dlp prints them", () => {
  // Lines follow yt-dlp's own formats: ExtractorError "[ie] id: message", raise_login_required's cookie
  // hint, bug_reports_message; site messages as the extractors (or the sites) word them.
  it.each([
    ["ERROR: No suitable extractor found for URL http://127.0.0.1:9/x.mp4", "unsupported_source"],
    ["ERROR: Unsupported URL: https://example.com/page", "unsupported_source"],
    ["ERROR: [twitter] 1790000000000000001: No video could be found in this tweet", "unsupported_source"],
    ["ERROR: [Instagram] C6xYzAbCdEf: There is no video in this post", "unsupported_source"],
    ["ERROR: [XiaoHongShu] 6650f0a1000000001e00abcd: No video formats found!; " + BUG_HINT, "unsupported_source"],
    ["ERROR: [youtube] dQw4w9WgXcQ: Video unavailable", "video_unavailable"],
    [
      "ERROR: [youtube] dQw4w9WgXcQ: Video unavailable. This video has been removed by the uploader",
      "video_unavailable",
    ],
    [
      `ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you've been granted access to this video. ${COOKIES_HINT}`,
      "video_unavailable",
    ],
    [
      `ERROR: [TikTok] 7350000000000000001: You do not have permission to view this post. Log into an account that has access. ${COOKIES_HINT}`,
      "video_unavailable",
    ],
    [
      `ERROR: [twitter] 1790000000000000001: You are not authorized to view this protected tweet. ${COOKIES_HINT}`,
      "video_unavailable",
    ],
    ["ERROR: [twitter] 1790000000000000001: Requested tweet is unavailable", "video_unavailable"],
    ["ERROR: [TikTok] 7350000000000000001: Video not available, status code 10204", "video_unavailable"],
    [
      "ERROR: [vimeo] 987654321: Unable to download JSON metadata: HTTP Error 404: Not Found (caused by <HTTPError 404: Not Found>)",
      "video_unavailable",
    ],
    [
      "ERROR: [XiaoHongShu] 6650f0a1000000001e00abcd: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404: Not Found>)",
      "video_unavailable",
    ],
    [
      'ERROR: [facebook] 1234567890123456: The video is not available, Facebook said: "This content isn\'t available right now"',
      "video_unavailable",
    ],
    [
      "ERROR: [vimeo] 987654321: This video is not available from your location due to geo restriction",
      "video_unavailable",
    ],
    [
      `ERROR: [youtube] dQw4w9WgXcQ: Sign in to confirm your age. This video may be inappropriate for some users. ${COOKIES_HINT}`,
      "age_restricted",
    ],
    [
      `ERROR: [facebook] 1234567890123456: This video is only available for registered users. ${COOKIES_HINT}`,
      "age_restricted",
    ],
    [`ERROR: [twitter] 1790000000000000001: NSFW tweet requires authentication. ${COOKIES_HINT}`, "age_restricted"],
    [
      `ERROR: [TikTok] 7350000000000000001: This post may not be comfortable for some audiences. Log in for access. ${COOKIES_HINT}`,
      "age_restricted",
    ],
    [
      `ERROR: [TikTok] 7350000000000000001: TikTok is requiring login for access to this content. ${COOKIES_HINT}`,
      "age_restricted",
    ],
    [
      "ERROR: [vimeo] 987654321: This video is protected by a password, use the --video-password option",
      "age_restricted",
    ],
    [`ERROR: [youtube] dQw4w9WgXcQ: Sign in to confirm you\u2019re not a bot. ${COOKIES_HINT}`, "upstream_blocked"],
    ["ERROR: [TikTok] 7350000000000000001: Your IP address is blocked from accessing this post", "upstream_blocked"],
    [
      "ERROR: [vimeo] 987654321: Unable to download webpage: HTTP Error 429: Too Many Requests (caused by <HTTPError 429: Too Many Requests>)",
      "upstream_rate_limited",
    ],
    [
      "ERROR: [Instagram] C6xYzAbCdEf: Unable to download JSON metadata: HTTP Error 403: Forbidden (caused by <HTTPError 403: Forbidden>)",
      "upstream_failed",
    ],
    [
      "ERROR: [twitter] 123: Unable to download JSON metadata: [Errno -2] Name or service not known (caused by TransportError('[Errno -2] Name or service not known'))",
      "upstream_dns_failed",
    ],
    [
      "ERROR: [youtube] dQw4w9WgXcQ: Unable to download API page: ('Unable to connect to proxy', OSError('Tunnel connection failed: 502 Destination name could not be resolved'))",
      "upstream_dns_failed",
    ],
    [
      "ERROR: [youtube] dQw4w9WgXcQ: Unable to download API page: ('Unable to connect to proxy', OSError('Tunnel connection failed: 502 Destination refused the connection'))",
      "upstream_refused",
    ],
    [
      "ERROR: [vimeo] 987654321: Unable to download webpage: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1000)",
      "upstream_tls_failed",
    ],
    [
      "ERROR: [youtube] dQw4w9WgXcQ: Unable to download API page: ('Unable to connect to proxy', OSError('Tunnel connection failed: 502 Destination could not be reached'))",
      "upstream_failed",
    ],
    [`ERROR: [TikTok] 7658719634220272914: Unexpected response from webpage request; ${BUG_HINT}`, "upstream_failed"],
    ["Traceback (most recent call last):\n  File \"yt_dlp/__main__.py\", line 1\nKeyError: 'x'", "upstream_failed"],
    ["", "upstream_failed"],
  ])("%s → %s", (stderr, code) => {
    const err = mapYtDlpError(stderr);
    expect(err).toBeInstanceOf(SourceError);
    expect(err.code).toBe(code);
    expect(err.message).not.toMatch(/cookies|yt-dlp|ERROR/);
  });

  it("decides on the last ERROR line, ignoring warnings, and keeps it as detail", () => {
    const stderr = [
      "WARNING: [twitter] Rate-limit exceeded; falling back to syndication endpoint",
      "ERROR: [twitter] 1790000000000000001: Requested tweet is unavailable",
    ].join("\n");
    const err = mapYtDlpError(stderr);
    expect(err.code).toBe("video_unavailable");
    expect(err.detail).toBe("Requested tweet is unavailable");
    expect(err.status).toBe(404);
  });

  it("errorLines strips the prefix", () => {
    expect(errorLines("x\nERROR: [vimeo] 1: Boom\nERROR: plain")).toEqual(["Boom", "plain"]);
  });
});

describe("runYtDlp with a fake binary", () => {
  it("passes the arguments without a shell and a trimmed environment", async () => {
    const outbound = createOutbound({ proxyUrl: "http://user:pw@proxy.example:3128" });
    const { stdout, args } = await runYtDlp(["-J", "--skip-download"], {
      binary: FAKE,
      url: "https://x.com/i/status/1?a=$(id)&b=`id`",
      outbound,
      env: { FAKE_YTDLP_MODE: "args" },
    });
    const seen = JSON.parse(stdout) as { argv: string[]; env: Record<string, string> };
    expect(seen.argv).toEqual(args);
    expect(seen.argv.slice(-2)).toEqual(["--", "https://x.com/i/status/1?a=$(id)&b=`id`"]);
    // yt-dlp's proxy is always the instance's guard on loopback, never the upstream proxy itself.
    expect(seen.argv[seen.argv.indexOf("--proxy") + 1]).toBe(await outbound.toolProxyUrl());
    expect(seen.argv[seen.argv.indexOf("--proxy") + 1]).toMatch(/^http:\/\/verbatim:[\w-]+@127\.0\.0\.1:\d+$/);
    expect(Object.keys(seen.env).filter((k) => /PROXY|DATABASE|SECRET|TOKEN|KEY/i.test(k))).toEqual([]);
    expect(seen.env.PYTHONIOENCODING).toBe("utf-8");
    await outbound.close();
  });

  it("maps a failing exit to a SourceError from stderr", async () => {
    const run = runYtDlp(["-J"], {
      binary: FAKE,
      url: "https://vimeo.com/1",
      env: {
        FAKE_YTDLP_MODE: "fail",
        FAKE_YTDLP_STDERR: "ERROR: [vimeo] 1: Unable to download JSON metadata: HTTP Error 404: Not Found\n",
      },
    });
    await expect(run).rejects.toMatchObject({ name: "YtDlpError", code: "video_unavailable", status: 404 });
  });

  it("kills the whole process group at the deadline", async () => {
    const pidfile = path.join(tmp, "pids.json");
    const run = runYtDlp(["-J"], {
      binary: FAKE,
      timeoutMs: 1500,
      env: { FAKE_YTDLP_MODE: "hang", FAKE_YTDLP_PIDFILE: pidfile },
    });
    await expect(run).rejects.toMatchObject({ code: "upstream_failed", message: expect.stringMatching(/too long/) });
    const pids = JSON.parse(readFileSync(pidfile, "utf8")) as number[];
    expect(pids).toHaveLength(2);
    await vi.waitFor(() => expect(pids.filter(isRunning)).toEqual([]), { timeout: 10_000, interval: 50 });
  });

  it("stops a run whose stdout passes the cap", async () => {
    const run = runYtDlp(["-J"], { binary: FAKE, maxStdoutBytes: 256 * 1024, env: { FAKE_YTDLP_MODE: "flood" } });
    await expect(run).rejects.toMatchObject({
      code: "upstream_failed",
      detail: expect.stringMatching(/more than 262144 bytes/),
    });
  });

  it("reports a missing binary as upstream_failed with an install hint in the detail", async () => {
    const run = runYtDlp(["--version"], { binary: path.join(tmp, "no-such-yt-dlp") });
    await expect(run).rejects.toBeInstanceOf(YtDlpError);
    await expect(run).rejects.toMatchObject({
      code: "upstream_failed",
      detail: expect.stringMatching(/install-yt-dlp\.sh/),
    });
  });

  it("honours an abort signal", async () => {
    const ac = new AbortController();
    const run = runYtDlp(["-J"], {
      binary: FAKE,
      signal: ac.signal,
      env: { FAKE_YTDLP_MODE: "hang", FAKE_YTDLP_PIDFILE: path.join(tmp, "p2.json") },
    });
    setTimeout(() => ac.abort(new Error("client went away")), 300);
    await expect(run).rejects.toThrow("client went away");
  });
});
