/**
 * The probe's record shared by the processes of one install: a yt-dlp in a .venv of a folder of the test's own,
 * a script that counts its runs and prints the header of a real yt-dlp (2026.08.19 with yt-dlp-ejs, so no deno
 * check follows).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { recordedYtDlpStatus } from "./status";

let dir: string;
let ytdlp: string;
const runs = () => readFileSync(path.join(dir, "runs"), "utf8").split("\n").filter(Boolean).length;

function writeYtDlp(version: string) {
  writeFileSync(
    ytdlp,
    `#!/bin/sh
echo run >> "${path.join(dir, "runs")}"
echo "[debug] yt-dlp version stable@${version} from yt-dlp/yt-dlp [594bd50c2] (pip)" >&2
echo "[debug] Optional libraries: certifi-2026.07.22, yt_dlp_ejs-0.8.0" >&2
echo "[debug] JS runtimes: deno-2.9.6" >&2
`,
  );
  chmodSync(ytdlp, 0o755);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "verbatim-probe-install-"));
  mkdirSync(path.join(dir, ".venv", "bin"), { recursive: true });
  ytdlp = path.join(dir, ".venv", "bin", "yt-dlp");
  writeFileSync(path.join(dir, "runs"), "");
  writeYtDlp("2026.08.19");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the yt-dlp probe's record", () => {
  it("is probed once for the processes of one install, and again once yt-dlp is updated", async () => {
    const first = await recordedYtDlpStatus(undefined, dir);
    expect(first).toMatchObject({ version: "2026.08.19", jsRuntime: "deno-2.9.6", solver: "yt-dlp-ejs 0.8.0" });
    expect(runs()).toBe(1);
    expect(await recordedYtDlpStatus(undefined, dir)).toEqual(first);
    expect(runs()).toBe(1);

    writeYtDlp("2026.11.01.123456");
    expect((await recordedYtDlpStatus(undefined, dir)).version).toBe("2026.11.01.123456");
    expect(runs()).toBe(2);
  });

  it("probes again over a damaged record", async () => {
    writeFileSync(path.join(dir, ".venv", "ytdlp-probe.json"), '{"key":');
    const before = runs();
    expect((await recordedYtDlpStatus(undefined, dir)).version).toBe("2026.11.01.123456");
    expect(runs()).toBe(before + 1);
  });

  it("keeps no record for a yt-dlp outside the install (YTDLP_PATH)", async () => {
    const before = runs();
    await recordedYtDlpStatus(ytdlp, "/");
    await recordedYtDlpStatus(ytdlp, "/");
    expect(runs()).toBe(before + 2);
  });
});
