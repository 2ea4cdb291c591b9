import { describe, expect, it } from "vitest";

import type { Segment } from "@/lib/formats/types";

import { boundStoredWords } from "./stored-words";

const seg = (start: number, n: number): Segment => ({
  start,
  end: start + 1,
  text: "w ".repeat(n).trim(),
  words: Array.from({ length: n }, (_, i) => ({ start: start + i / 10, end: start + (i + 1) / 10, text: "w" })),
});

describe("boundStoredWords", () => {
  it("keeps every word while the transcript is within the bound", () => {
    const segments = [seg(0, 3), { start: 1, end: 2, text: "[Music]" }, seg(2, 2)];
    expect(boundStoredWords(segments, 5)).toEqual(segments);
  });

  it("past the bound, the later segments keep their text and times but no words", () => {
    const segments = [seg(0, 3), seg(1, 3), seg(2, 1)];
    const out = boundStoredWords(segments, 4);
    expect(out.map((s) => s.words?.length ?? 0)).toEqual([3, 0, 0]);
    expect(out.map(({ start, end, text }) => ({ start, end, text }))).toEqual(
      segments.map(({ start, end, text }) => ({ start, end, text })),
    );
    expect(segments[1]?.words).toHaveLength(3);
  });
});
