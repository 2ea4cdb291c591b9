import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listPlaylist, parsePlaylistJson, parsePlaylistUrl } from "@/lib/imports/playlist";
import { FAKES_DIR } from "@/test/fakes/ytdlp/server";

// The stand-in yt-dlp binary (test/fakes/ytdlp/fake-yt-dlp.mjs) prints a hand-made flat-playlist document.
const FAKE = path.join(FAKES_DIR, "fake-yt-dlp.mjs");
const FIXTURE = path.resolve("test/fakes/podcasts/youtube-playlist.flat.json");
const tmp = mkdtempSync(path.join(tmpdir(), "playlist-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("parsePlaylistUrl", () => {
  it.each([
    [
      "https://www.youtube.com/playlist?list=PLtest0000000000000000000000000001",
      "https://www.youtube.com/playlist?list=PLtest0000000000000000000000000001",
    ],
    ["https://youtube.com/@verbatim", "https://www.youtube.com/@verbatim/videos"],
    ["https://m.youtube.com/@verbatim/streams", "https://www.youtube.com/@verbatim/streams"],
    [
      "https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv",
      "https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv/videos",
    ],
    ["https://www.youtube.com/c/SomeName/videos", "https://www.youtube.com/c/SomeName/videos"],
  ])("%s → %s", (raw, canonical) => {
    expect(parsePlaylistUrl(raw)).toBe(canonical);
  });

  it.each([
    "https://www.youtube.com/watch?v=aaaaaaaaaa1",
    "https://www.youtube.com/playlist?list=x",
    "https://youtube.com.evil.com/@verbatim",
    "https://www.youtube.com:8443/@verbatim",
    "https://user:pw@www.youtube.com/@verbatim",
    "javascript:alert(1)",
    "https://example.com/feed.xml",
  ])("%s → null", (raw) => {
    expect(parsePlaylistUrl(raw)).toBeNull();
  });
});

describe("listing a playlist", () => {
  it("reads the flat-playlist document: nested tabs flattened, repeats and entries without an id left out, capped", () => {
    const json = JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown;
    const listed = parsePlaylistJson(json, 100);
    expect(listed.title).toMatch(/^Hand-made/);
    expect(listed.entries).toEqual([
      { id: "aaaaaaaaaa1", title: "First talk", durationSeconds: 61 },
      { id: "aaaaaaaaaa2", title: "Second talk", durationSeconds: 0 },
      { id: "bbbbbbbbbb1", title: "A short", durationSeconds: 43 },
    ]);
    expect(parsePlaylistJson(json, 1).entries).toHaveLength(1);
    expect(parsePlaylistJson("nonsense", 10)).toEqual({ title: null, entries: [], channelId: null });
  });

  it("runs yt-dlp in flat-playlist mode through the one runner, the URL after --", async () => {
    const argsFile = path.join(tmp, "args.json");
    const listed = await listPlaylist("https://www.youtube.com/playlist?list=PLtest0000000000000000000000000001", {
      binary: FAKE,
      max: 50,
      env: { FAKE_YTDLP_MODE: "info", FAKE_YTDLP_INFO: FIXTURE, FAKE_YTDLP_ARGSFILE: argsFile },
    });
    expect(listed.entries.map((e) => e.id)).toEqual(["aaaaaaaaaa1", "aaaaaaaaaa2", "bbbbbbbbbb1"]);
    const argv = JSON.parse(readFileSync(argsFile, "utf8")) as string[];
    expect(argv).toEqual(
      expect.arrayContaining(["--flat-playlist", "--yes-playlist", "--dump-single-json", "--playlist-end", "50"]),
    );
    expect(argv.indexOf("--yes-playlist")).toBeGreaterThan(argv.indexOf("--no-playlist")); // the later flag wins
    expect(argv.slice(-2)).toEqual(["--", "https://www.youtube.com/playlist?list=PLtest0000000000000000000000000001"]);
  });

  it("maps yt-dlp's failures and refuses output that is not JSON", async () => {
    await expect(
      listPlaylist("https://www.youtube.com/playlist?list=PLtest0000000000000000000000000001", {
        binary: FAKE,
        max: 5,
        env: {
          FAKE_YTDLP_MODE: "fail",
          FAKE_YTDLP_STDERR: "ERROR: [youtube:tab] PLtest: The playlist does not exist.\n",
        },
      }),
    ).rejects.toMatchObject({ name: expect.stringMatching(/Error$/) });
    await expect(
      listPlaylist("https://www.youtube.com/@x/videos", { binary: FAKE, max: 5, env: { FAKE_YTDLP_MODE: "garbage" } }),
    ).rejects.toMatchObject({
      code: "upstream_failed",
    });
  });
});

describe("summarise", () => {
  it("derives the batch status from the counts", async () => {
    const { summarise } = await import("@/lib/imports/batch-status");
    const c = (queued: number, running: number, done: number, failed: number, skipped: number) => ({
      queued,
      running,
      done,
      failed,
      skipped,
    });
    expect(summarise(c(1, 0, 3, 0, 0), null).status).toBe("running");
    expect(summarise(c(0, 0, 3, 0, 2), null)).toEqual({ status: "done", note: null });
    expect(summarise(c(0, 0, 0, 2, 0), "no audio")).toEqual({
      status: "error",
      note: "Every item failed; the first: no audio",
    });
    expect(summarise(c(0, 0, 1, 2, 1), "over allowance")).toEqual({
      status: "partial",
      note: "2 of 4 items failed; the first: over allowance",
    });
  });
});
