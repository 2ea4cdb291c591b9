import { describe, expect, it } from "vitest";
import { parseCaptionsOffThread } from "@/lib/captions/parse-off-thread";
import { movable } from "./off-thread";

const SRT = "1\n00:00:01,000 --> 00:00:02,000\nhello\n\n2\n00:00:03,000 --> 00:00:04,000\nworld\n";

describe("movable", () => {
  it("keeps bytes that own their whole buffer, and copies a view on a larger one", () => {
    const own = new Uint8Array(8);
    expect(movable(own)).toBe(own);
    const pooled = Buffer.from("a small buffer from Node's shared pool");
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const copy = movable(pooled);
    expect(copy.buffer).not.toBe(pooled.buffer);
    expect(Buffer.from(copy).equals(pooled)).toBe(true);
  });
});

describe("runOffThread", () => {
  it("moves a document's bytes to the thread instead of copying them, and leaves a shared pool alone", async () => {
    const bytes = new Uint8Array(Buffer.from(SRT));
    const segments = await parseCaptionsOffThread(bytes, "srt", "manual");
    expect(segments.map((s) => s.text)).toEqual(["hello", "world"]);
    expect(bytes.byteLength).toBe(0);

    const pooled = Buffer.from(SRT);
    const neighbour = Buffer.from("another buffer of the same pool");
    expect(await parseCaptionsOffThread(pooled, "srt", "manual")).toHaveLength(2);
    expect(pooled.toString()).toBe(SRT);
    expect(neighbour.toString()).toBe("another buffer of the same pool");
  });

  it("decodes UTF-16 files by their byte order mark in the thread", async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SRT, "utf16le")]);
    expect((await parseCaptionsOffThread(utf16, "srt", "manual")).map((s) => s.text)).toEqual(["hello", "world"]);
  });
});
