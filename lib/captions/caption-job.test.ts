import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isBlankBytes } from "@/lib/captions/parse";
import type { Segment } from "@/lib/formats/types";
import { boundTrack, readCaptionJob, TRACK_BOUNDS, type TrackBounds } from "./caption-job";

const FIXTURES = path.join(process.cwd(), "test/fixtures/captions");
const bounds: TrackBounds = { maxSegments: 3, maxTextChars: 20, maxWords: 2 };
const timed = (start: number, text: string, words = 1): Segment => ({
  start,
  end: start + 1,
  text,
  words: Array.from({ length: words }, (_, i) => ({ start: start + i / 10, end: start + (i + 1) / 10, text: "w" })),
});

describe("boundTrack", () => {
  it("keeps a track within its bounds as it is", () => {
    const segments = [timed(0, "one"), timed(1, "two")];
    expect(boundTrack(segments, bounds)).toEqual({ ok: true, segments });
  });

  it("refuses a track with more lines than one transcript keeps, saying how many", () => {
    const segments = [0, 1, 2, 3].map((i) => ({ start: i, end: i + 1, text: "a" }));
    expect(boundTrack(segments, bounds)).toEqual({
      ok: false,
      tooLarge: true,
      message: "The caption track has 4 lines; Verbatim keeps at most 3 for one transcript.",
    });
  });

  it("refuses a track with more text than one transcript keeps", () => {
    const outcome = boundTrack([{ start: 0, end: 1, text: "x".repeat(21) }], bounds);
    expect(outcome).toMatchObject({ ok: false, tooLarge: true, message: expect.stringContaining("21 characters") });
  });

  it("keeps word times up to its bound; the later segments keep their text and times", () => {
    const outcome = boundTrack([timed(0, "a", 1), timed(1, "b", 1), timed(2, "c", 1)], bounds);
    expect(outcome.ok && outcome.segments.map((s) => s.words?.length ?? 0)).toEqual([1, 1, 0]);
    expect(outcome.ok && outcome.segments.map((s) => s.text)).toEqual(["a", "b", "c"]);
  });
});

describe("readCaptionJob", () => {
  it("answers a platform's track normalized and bounded, a real 20-minute automatic track whole", () => {
    const body = readFileSync(path.join(FIXTURES, "ytenglishhub.auto.en.json3"), "utf8");
    const outcome = readCaptionJob({ kind: "captions", body, format: "json3", track: "auto" });
    if (!outcome.ok) throw new Error(outcome.message);
    const words = outcome.segments.reduce((n, s) => n + (s.words?.length ?? 0), 0);
    expect(outcome.segments.length).toBeGreaterThan(100);
    expect(outcome.segments.length).toBeLessThan(TRACK_BOUNDS.maxSegments / 20);
    expect(words).toBeGreaterThan(2_000);
    expect(words).toBeLessThan(TRACK_BOUNDS.maxWords / 5);
    expect(outcome.segments.every((s) => s.words !== undefined)).toBe(true);
  });

  it("refuses a platform's track past the bounds it is given", () => {
    const body = ["1", "2", "3", "4"]
      .map((n, i) => `${n}\n00:00:0${i},000 --> 00:00:0${i},900\nline ${n}\n`)
      .join("\n");
    const job = { kind: "captions" as const, body, format: "srt" as const, bounds };
    expect(readCaptionJob({ ...job, track: "manual" })).toMatchObject({ ok: false, tooLarge: true });
    // An author's own file is only tidied: its caller (a correction) has bounds of its own.
    expect(readCaptionJob({ ...job, track: null })).toMatchObject({ ok: true, segments: { length: 4 } });
  });
});

describe("isBlankBytes", () => {
  it("sees white space and byte order marks only, without decoding", () => {
    expect(isBlankBytes(Buffer.from(" \n\t\r\n"))).toBe(true);
    expect(isBlankBytes(Buffer.from("\uFEFF  "))).toBe(true);
    expect(isBlankBytes(new Uint8Array(0))).toBe(true);
    expect(isBlankBytes(Buffer.from("  {}"))).toBe(false);
    expect(isBlankBytes(Buffer.from("\u00a0"))).toBe(false);
  });
});
