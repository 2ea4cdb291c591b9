import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashFile, walkFolder, writeBeside } from "./files";

let base: string;
let root: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "verbatim-watch-files-")));
  root = path.join(base, "Recordings folder");
  mkdirSync(path.join(root, "2026", ".hidden"), { recursive: true });
  mkdirSync(path.join(base, "outside"));
  writeFileSync(path.join(base, "outside", "secret.mp3"), "outside");
  writeFileSync(path.join(root, "talk.mp3"), "talk");
  writeFileSync(path.join(root, "talk.mp3.srt"), "ours");
  writeFileSync(path.join(root, "2026", "ca\u0301fe\u0301.m4a"), "nfd"); // a macOS (NFD) name
  writeFileSync(path.join(root, "2026", ".hidden", "x.mp3"), "x");
  symlinkSync(path.join(base, "outside", "secret.mp3"), path.join(root, "escape.mp3"));
  symlinkSync(path.join(base, "outside"), path.join(root, "escape-dir"));
  symlinkSync(path.join(root, "talk.mp3"), path.join(root, "alias.mp3"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("walkFolder", () => {
  it("lists the recordings below the folder, follows no symlink, and reports those that lead outside", async () => {
    const walk = await walkFolder(root);
    expect(walk.files.map((f) => f.rel)).toEqual(["2026/ca\u0301fe\u0301.m4a", "talk.mp3"]);
    expect(walk.files[1]).toMatchObject({ abs: path.join(root, "talk.mp3"), size: 4 });
    expect(walk.refused.sort()).toEqual(["escape-dir", "escape.mp3"]);
  });
});

describe("hashFile", () => {
  it("is the SHA-256 of the bytes, and refuses to follow a symlink", async () => {
    const big = path.join(base, "big.bin");
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 7);
    writeFileSync(big, bytes);
    expect(await hashFile(big)).toBe(createHash("sha256").update(bytes).digest("hex"));
    await expect(hashFile(path.join(root, "escape.mp3"))).rejects.toMatchObject({ code: "ELOOP" });
  });
});

describe("writeBeside", () => {
  it("writes under a temporary name then the real one, and never replaces a file", async () => {
    expect(await writeBeside(root, root, "talk.mp3.md", "# Talk\n")).toBe(true);
    expect(readFileSync(path.join(root, "talk.mp3.md"), "utf8")).toBe("# Talk\n");
    expect(await writeBeside(root, root, "talk.mp3.srt", "new")).toBe(false);
    expect(readFileSync(path.join(root, "talk.mp3.srt"), "utf8")).toBe("ours");
    expect(readdirSync(root).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a folder that is a symlink, and a name taken by a symlink", async () => {
    await expect(writeBeside(root, path.join(root, "escape-dir"), "x.srt", "x")).rejects.toThrow(/refused/);
    expect(readdirSync(path.join(base, "outside"))).toEqual(["secret.mp3"]);
    expect(await writeBeside(root, root, "escape.mp3", "x")).toBe(false);
    expect(readFileSync(path.join(base, "outside", "secret.mp3"), "utf8")).toBe("outside");
  });
});
