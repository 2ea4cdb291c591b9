import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { removeStaleTempDirs, TempFiles, withTempDir } from "./temp";

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "media-temp-test-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("withTempDir", () => {
  it("gives a fresh private directory and removes it after success", async () => {
    let seen = "";
    const result = await withTempDir(
      "job",
      async (dir, files) => {
        seen = dir;
        expect(path.basename(dir)).toMatch(/^verbatim-job-/);
        expect(files.dir).toBe(dir);
        await writeFile(files.path("a.wav"), "x");
        mkdirSync(path.join(dir, "nested"));
        writeFileSync(path.join(dir, "nested", "b"), "y");
        return 42;
      },
      { root },
    );
    expect(result).toBe(42);
    expect(seen).not.toBe("");
    expect(existsSync(seen)).toBe(false);
  });

  it("removes the directory after a failure and rethrows the failure", async () => {
    let seen = "";
    const boom = new Error("boom");
    await expect(
      withTempDir(
        "job",
        async (dir) => {
          seen = dir;
          writeFileSync(path.join(dir, "partial.mp3"), "x");
          throw boom;
        },
        { root },
      ),
    ).rejects.toBe(boom);
    expect(existsSync(seen)).toBe(false);
  });

  it("removes the directory when the job is aborted", async () => {
    const ac = new AbortController();
    let seen = "";
    let started!: () => void;
    const working = new Promise<void>((resolve) => (started = resolve));
    const job = withTempDir(
      "job",
      (dir, _files) =>
        new Promise<never>((_resolve, reject) => {
          seen = dir;
          writeFileSync(path.join(dir, "partial.mp3"), "x");
          ac.signal.addEventListener("abort", () => reject(ac.signal.reason));
          started();
        }),
      { root, signal: ac.signal },
    );
    await working;
    ac.abort(new Error("cancelled by the user"));
    await expect(job).rejects.toThrow("cancelled by the user");
    expect(existsSync(seen)).toBe(false);
  });

  it("does not start when the signal is already aborted", async () => {
    const ac = new AbortController();
    ac.abort(new Error("too late"));
    let ran = false;
    await expect(
      withTempDir(
        "job",
        async () => {
          ran = true;
        },
        { root, signal: ac.signal },
      ),
    ).rejects.toThrow("too late");
    expect(ran).toBe(false);
  });

  it("does not start, and leaves no folder, when the signal is aborted while the folder is being made", async () => {
    const before = readdirSync(root);
    const ac = new AbortController();
    let ran = false;
    const job = withTempDir(
      "job",
      async () => {
        ran = true;
      },
      { root, signal: ac.signal },
    );
    ac.abort(new Error("cancelled meanwhile"));
    await expect(job).rejects.toThrow("cancelled meanwhile");
    expect(ran).toBe(false);
    expect(readdirSync(root)).toEqual(before);
  });

  it("refuses prefixes that are not a plain word", async () => {
    for (const prefix of ["", "../x", "a/b", "x".repeat(40), "-x"]) {
      await expect(withTempDir(prefix, async () => 1, { root })).rejects.toThrow(/prefix/);
    }
  });
});

describe("TempFiles", () => {
  it("keeps every path inside its directory", async () => {
    const files = await TempFiles.create("paths", { root });
    try {
      expect(files.path("asr.ogg")).toBe(path.join(files.dir, "asr.ogg"));
      for (const bad of ["../x", "a/b", "/etc/passwd", "..", ".hidden", "", "a\\b"])
        expect(() => files.path(bad)).toThrow();
      await expect(files.remove(path.join(root, "elsewhere"))).rejects.toThrow();
    } finally {
      await files.cleanup();
    }
    expect(existsSync(files.dir)).toBe(false);
    await files.cleanup(); // idempotent
  });

  it("removes one file early", async () => {
    const files = TempFiles.createSync("early", { root });
    writeFileSync(files.path("source.mp3"), "x");
    await files.remove(files.path("source.mp3"));
    expect(existsSync(files.path("source.mp3"))).toBe(false);
    await files.remove("missing.mp3");
    await files.cleanup();
  });

  it("works with `await using`-style disposal", async () => {
    const files = await TempFiles.create("dispose", { root });
    await files[Symbol.asyncDispose]();
    expect(existsSync(files.dir)).toBe(false);
  });
});

describe("removeStaleTempDirs", () => {
  it("removes only our old directories, never live ones or anything else", async () => {
    const sweepRoot = mkdtempSync(path.join(root, "sweep-"));
    const old = Date.now() / 1000 - 24 * 3600;
    const stale = path.join(sweepRoot, "verbatim-asr-AAAAAA");
    const fresh = path.join(sweepRoot, "verbatim-asr-BBBBBB");
    const foreign = path.join(sweepRoot, "someone-else-CCCCCC");
    for (const d of [stale, fresh, foreign]) mkdirSync(d);
    writeFileSync(path.join(stale, "audio.m4a"), "x");
    utimesSync(stale, old, old);
    utimesSync(foreign, old, old);
    const live = await TempFiles.create("asr", { root: sweepRoot });
    utimesSync(live.dir, old, old);

    const removed = await removeStaleTempDirs({ root: sweepRoot, prefix: "asr" });
    expect(removed).toEqual([stale]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(live.dir)).toBe(true);
    await live.cleanup();
  });
});
