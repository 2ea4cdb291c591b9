import { describe, expect, it } from "vitest";
import { replaceInSegments } from "@/lib/edits/find-replace";
import type { Segment } from "@/lib/formats/types";

describe("replaceInSegments on a speaker-labelled transcript", () => {
  it("a changed line keeps its speaker, its times and the times of its unchanged words", () => {
    const segments: Segment[] = [
      {
        start: 0,
        end: 2,
        text: "Jon Smith here",
        speaker: "Host",
        words: [
          { start: 0, end: 0.5, text: "Jon" },
          { start: 0.6, end: 1.2, text: "Smith" },
          { start: 1.3, end: 2, text: "here" },
        ],
      },
      { start: 2, end: 4, text: "thanks, Jon", speaker: "Guest" },
      { start: 4, end: 5, text: "untouched", speaker: "Host" },
    ];
    const out = replaceInSegments(segments, "jon", "John");
    expect(out.replaced).toBe(2);
    expect(out.segments[0]).toEqual({
      ...segments[0],
      text: "John Smith here",
      words: [
        { start: 0, end: 0.6, text: "John" },
        { start: 0.6, end: 1.2, text: "Smith" },
        { start: 1.3, end: 2, text: "here" },
      ],
    });
    expect(out.segments[1]).toEqual({ start: 2, end: 4, text: "thanks, John", speaker: "Guest" });
    expect(out.segments[2]).toBe(segments[2]);
  });
});
