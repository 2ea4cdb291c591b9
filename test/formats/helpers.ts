// Shared assertions for the format tests (not a test file itself).
import { expect } from "vitest";
import { toMs } from "@/lib/formats/normalize";
import type { Segment } from "@/lib/formats/types";

/** A small transcript touching whitespace, special characters, an arrow and a sub-ms end. */
export const SHORT: Segment[] = [
  { start: 0, end: 2.5, text: "Hello world." },
  { start: 2.5, end: 5.0004, text: "Second  line\nwith newline" },
  { start: 5.1, end: 7, text: "Fish & chips <b>bold</b> --> arrow" },
];

/** Messy input: unsorted, overlapping, zero-length, empty-text, negative and duplicate-start segments. */
export const MESSY: Segment[] = [
  { start: 10, end: 12, text: "ten" },
  { start: 3, end: 8, text: "three overlaps four" },
  { start: 4, end: 4, text: "four is zero-length" },
  { start: 6, end: 6, text: "   " },
  { start: -2, end: 1, text: "negative start" },
  { start: 20, end: 20, text: "last zero-length" },
  { start: 15, end: 14, text: "inverted" },
  { start: 15, end: 16, text: "same start as inverted" },
  { start: 30, end: 31, text: "" },
];

/** Asserts the normalized-output invariants, in exact integer milliseconds. */
export function expectNormalizedInvariants(segments: readonly Segment[]): void {
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const s = toMs(seg.start);
    const e = toMs(seg.end);
    if (!(Number.isFinite(s) && Number.isFinite(e) && s >= 0 && e > s)) {
      expect.fail(`segment ${i} has bad times ${seg.start} → ${seg.end}`);
    }
    if (seg.text === "" || seg.text !== seg.text.trim() || /\s\s|[\n\r\t]/.test(seg.text)) {
      expect.fail(`segment ${i} has unclean text ${JSON.stringify(seg.text)}`);
    }
    if (i + 1 < segments.length && e > toMs(segments[i + 1].start)) {
      expect.fail(`segment ${i} (end ${seg.end}) overlaps segment ${i + 1} (start ${segments[i + 1].start})`);
    }
  }
}

/** Count of whitespace-separated words across segments: normalization must not lose or invent text. */
export function wordCount(segments: readonly Segment[]): number {
  let n = 0;
  for (const seg of segments) {
    const t = seg.text.trim();
    if (t !== "") n += t.split(/\s+/).length;
  }
  return n;
}
