import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { zipStream, type ZipEntry } from "./zip";

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("zipStream", () => {
  it("writes each entry under its name, non-ASCII names as UTF-8", async () => {
    const modified = new Date(2026, 0, 2, 3, 4, 6);
    const entries: ZipEntry[] = [
      { name: "Why ice floats (aaaaaaaaaa).md", content: "# Why ice floats\n", modified },
      { name: "日本語のタイトル (bbbbbbbbbb).md", content: "# 日本語\n", modified },
      { name: "Café (cccccccccc).md", content: "x".repeat(100_000), modified },
    ];
    const files = unzipSync(await bytesOf(zipStream(iterate(entries))));
    expect(Object.keys(files)).toEqual(entries.map((e) => e.name));
    for (const entry of entries) expect(strFromU8(files[entry.name]!)).toBe(entry.content);
  });

  it("asks for the next entry only when the reader wants more", async () => {
    let asked = 0;
    async function* many(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 1000; i++) {
        asked++;
        yield { name: `${i}.md`, content: `note ${i} `.repeat(2000), modified: new Date(0) };
      }
    }
    const reader = zipStream(many()).getReader();
    await reader.read();
    await reader.read();
    expect(asked).toBeLessThan(5);
    await reader.cancel();
  });

  it("stops reading entries when the reader goes away", async () => {
    let closed = false;
    async function* endless(): AsyncGenerator<ZipEntry> {
      try {
        for (let i = 0; ; i++) yield { name: `${i}.md`, content: "text", modified: new Date(0) };
      } finally {
        closed = true;
      }
    }
    const reader = zipStream(endless()).getReader();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
  });

  it("errors the stream when an entry cannot be read", async () => {
    async function* failing(): AsyncGenerator<ZipEntry> {
      yield { name: "a.md", content: "a", modified: new Date(0) };
      throw new Error("database gone");
    }
    await expect(bytesOf(zipStream(failing()))).rejects.toThrow("database gone");
  });

  it("takes a time before 1980 or after 2099, which a zip cannot hold, as the nearest it can", async () => {
    const entries = [
      note("old.md", new Date(0)),
      note("new.md", new Date(Date.UTC(2200, 0, 1))),
      note("bad.md", new Date(NaN)),
    ];
    expect(Object.keys(unzipSync(await bytesOf(zipStream(iterate(entries)))))).toEqual(["old.md", "new.md", "bad.md"]);
  });

  it("makes a valid empty archive", async () => {
    expect(unzipSync(await bytesOf(zipStream(iterate([]))))).toEqual({});
  });
});

async function* iterate(entries: readonly ZipEntry[]): AsyncGenerator<ZipEntry> {
  for (const entry of entries) yield entry;
}

const note = (name: string, modified: Date): ZipEntry => ({ name, content: name, modified });
