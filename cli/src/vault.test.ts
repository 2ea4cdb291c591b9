import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { zipStream, type ZipEntry } from "@/lib/exports/zip";
import { digestOf, writeNotes } from "./vault";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "verbatim-vault-"));
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

const note = (name: string, content: string): ZipEntry => ({ name, content, modified: new Date(0) });

async function* iterate(entries: ZipEntry[]): AsyncGenerator<ZipEntry> {
  for (const entry of entries) yield entry;
}

const write = (entries: ZipEntry[]) => writeNotes(zipStream(iterate(entries)), folder);

describe("writeNotes", () => {
  it("writes new notes, leaves identical ones alone, and replaces changed ones in place", async () => {
    const first = await write([note("Why ice floats (aaaaaaaaaa).md", "one"), note("Grit (bbbbbbbbbb).md", "two")]);
    expect(first.added.sort()).toEqual(["Grit (bbbbbbbbbb).md", "Why ice floats (aaaaaaaaaa).md"]);
    const before = await stat(path.join(folder, "Grit (bbbbbbbbbb).md"));

    const second = await write([
      note("Why ice floats (aaaaaaaaaa).md", "one, corrected"),
      note("Grit (bbbbbbbbbb).md", "two"),
    ]);
    expect(second).toEqual({
      added: [],
      updated: ["Why ice floats (aaaaaaaaaa).md"],
      renamed: [],
      unchanged: ["Grit (bbbbbbbbbb).md"],
    });
    expect((await stat(path.join(folder, "Grit (bbbbbbbbbb).md"))).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(path.join(folder, "Why ice floats (aaaaaaaaaa).md"), "utf8")).toBe("one, corrected");
  });

  it("renames a note whose title changed instead of writing it twice, and touches no other file", async () => {
    await writeFile(path.join(folder, "My own note.md"), "mine");
    await write([note("Old title (aaaaaaaaaa).md", "text")]);
    const outcome = await write([note("New title (aaaaaaaaaa).md", "text")]);
    expect(outcome.renamed).toEqual([{ from: "Old title (aaaaaaaaaa).md", to: "New title (aaaaaaaaaa).md" }]);
    expect((await readdir(folder)).sort()).toEqual(["My own note.md", "New title (aaaaaaaaaa).md"]);
    expect(await readFile(path.join(folder, "My own note.md"), "utf8")).toBe("mine");
  });

  it("refuses a name that would leave the folder", async () => {
    for (const name of ["../escape (aaaaaaaaaa).md", "sub/dir (aaaaaaaaaa).md", "..\\x.md", ".hidden.md", "x.sh"]) {
      await expect(write([note(name, "x")]), name).rejects.toThrow("cannot take");
    }
    expect(await readdir(folder)).toEqual([]);
  });

  it("reads the digest of a note's name", () => {
    expect(digestOf("Title (k3x7q2m7ta).md")).toBe("k3x7q2m7ta");
    expect(digestOf("k3x7q2m7ta.md")).toBe("k3x7q2m7ta");
    expect(digestOf("My own note.md")).toBeNull();
  });
});
