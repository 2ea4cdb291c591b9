import { describe, expect, it } from "vitest";
import { makeLongTranscript } from "@/test/formats/fixtures";
import { MIN_CUE_MS, normalizeSegments } from "./normalize";
import { MESSY, expectNormalizedInvariants, wordCount } from "@/test/formats/helpers";
import type { Segment } from "./types";

describe("normalizeSegments", () => {
  it("drops empty and whitespace-only text and collapses internal whitespace", () => {
    const out = normalizeSegments([
      { start: 0, end: 1, text: "" },
      { start: 1, end: 2, text: "  \n\t \u2028 " },
      { start: 2, end: 3, text: "  a \n\n b\t\tc\r\nd\u00a0 e\u0000f  " },
    ]);
    expect(out).toEqual([{ start: 2, end: 3, text: "a b c d e f" }]);
  });

  it("sorts unsorted input by start and trims overlaps to the next start", () => {
    const out = normalizeSegments([
      { start: 10, end: 12, text: "c" },
      { start: 0, end: 5, text: "a" },
      { start: 3, end: 9, text: "b" },
    ]);
    expect(out).toEqual([
      { start: 0, end: 3, text: "a" },
      { start: 3, end: 9, text: "b" },
      { start: 10, end: 12, text: "c" },
    ]);
  });

  it("gives zero-length and inverted cues a minimum length capped by the next start", () => {
    const out = normalizeSegments([
      { start: 1, end: 1, text: "zero, next far" },
      { start: 5, end: 5, text: "zero, next close" },
      { start: 5.2, end: 4, text: "inverted, next far" },
      { start: 9, end: 9, text: "zero, last" },
    ]);
    expect(out).toEqual([
      { start: 1, end: 1 + MIN_CUE_MS / 1000, text: "zero, next far" },
      { start: 5, end: 5.2, text: "zero, next close" },
      { start: 5.2, end: 5.2 + MIN_CUE_MS / 1000, text: "inverted, next far" },
      { start: 9, end: 9 + MIN_CUE_MS / 1000, text: "zero, last" },
    ]);
  });

  it("clamps negative times to 0", () => {
    expect(normalizeSegments([{ start: -3, end: 2, text: "x" }])).toEqual([{ start: 0, end: 2, text: "x" }]);
    expect(normalizeSegments([{ start: -3, end: -1, text: "x" }])).toEqual([{ start: 0, end: 0.5, text: "x" }]);
    const [seg] = normalizeSegments([{ start: -0.0001, end: 1, text: "x" }]);
    expect(Object.is(seg.start, -0)).toBe(false);
  });

  it("merges segments starting on the same millisecond instead of emitting a zero-length cue", () => {
    const out = normalizeSegments([
      { start: 1, end: 2, text: "a" },
      { start: 1.0004, end: 3, text: "b" },
      { start: 1, end: 1.5, text: "c" },
      { start: 4, end: 5, text: "d" },
    ]);
    expect(out).toEqual([
      { start: 1, end: 3, text: "a b c" },
      { start: 4, end: 5, text: "d" },
    ]);
  });

  it("rounds to whole milliseconds and keeps the invariants after rounding", () => {
    const out = normalizeSegments([
      { start: 0.0004, end: 1.0006, text: "a" },
      { start: 1.0004, end: 1.0004, text: "b" },
      { start: 1.2345678, end: 2.9999, text: "c" },
    ]);
    expect(out).toEqual([
      { start: 0, end: 1, text: "a" },
      { start: 1, end: 1.235, text: "b" },
      { start: 1.235, end: 3, text: "c" },
    ]);
    expectNormalizedInvariants(out);
  });

  it("never produces NaN from non-finite or missing times", () => {
    const out = normalizeSegments([
      { start: NaN, end: 2, text: "start NaN" },
      { start: NaN, end: NaN, text: "both NaN (dropped)" },
      { start: 3, end: NaN, text: "end NaN" },
      { start: 5, end: Infinity, text: "end Infinity" },
      { start: Infinity, end: -Infinity, text: "both infinite (dropped)" },
      { start: "7" as unknown as number, end: 8, text: "string start falls back to end" },
      { start: 9, end: 10, text: 42 as unknown as string }, // non-string text: dropped
      { start: 9, end: 10, text: "42" },
      null as unknown as Segment,
    ]);
    expect(out).toEqual([
      { start: 2, end: 2.5, text: "start NaN" },
      { start: 3, end: 3.5, text: "end NaN" },
      { start: 5, end: 5.5, text: "end Infinity" },
      { start: 8, end: 8.5, text: "string start falls back to end" },
      { start: 9, end: 10, text: "42" },
    ]);
  });

  it("handles the messy fixture without losing text", () => {
    const out = normalizeSegments(MESSY);
    expect(out.map((s) => s.text)).toEqual([
      "negative start",
      "three overlaps four",
      "four is zero-length",
      "ten",
      "inverted same start as inverted",
      "last zero-length",
    ]);
    expect(out[0]).toEqual({ start: 0, end: 1, text: "negative start" });
    expect(out[1]).toEqual({ start: 3, end: 4, text: "three overlaps four" });
    expect(out[2]).toEqual({ start: 4, end: 4.5, text: "four is zero-length" });
    expect(out[4]).toEqual({ start: 15, end: 16, text: "inverted same start as inverted" });
    expect(out[5]).toEqual({ start: 20, end: 20.5, text: "last zero-length" });
    expectNormalizedInvariants(out);
    expect(wordCount(out)).toBe(wordCount(MESSY));
  });

  it("is pure: the input array and its segments are untouched", () => {
    const input = MESSY.map((s) => ({ ...s }));
    const snapshot = JSON.stringify(input);
    const out = normalizeSegments(input);
    expect(JSON.stringify(input)).toBe(snapshot);
    expect(out).not.toBe(input);
    for (const seg of out) expect(input).not.toContain(seg);
  });

  it("keeps the invariants on random messy input", () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 0x1_0000_0000;
    };
    for (let round = 0; round < 50; round++) {
      const input: Segment[] = [];
      for (let i = 0; i < 200; i++) {
        const start = Math.floor(rand() * 100 * 1000) / 1000 - 5; // includes negatives and ms collisions
        const r = rand();
        const end = r < 0.1 ? start : r < 0.2 ? start - 1 : start + rand() * 10;
        input.push({ start, end, text: rand() < 0.1 ? " \n " : `w${i} x${i}` });
      }
      const out = normalizeSegments(input);
      expectNormalizedInvariants(out);
      expect(wordCount(out)).toBe(wordCount(input));
    }
  });

  it("handles a 10-hour, 36,000-segment transcript", () => {
    const input = makeLongTranscript(36_000);
    const out = normalizeSegments(input);
    expect(out).toHaveLength(36_000);
    expectNormalizedInvariants(out);
    expect(out[out.length - 1].end).toBeGreaterThan(10 * 3600);
    expect(wordCount(out)).toBe(wordCount(input));
  });
});
