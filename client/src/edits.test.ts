import { describe, expect, it } from "vitest";
import { replaceInSegments } from "./index";

describe("replaceInSegments", () => {
  const segments = [
    { start: 0, end: 1, text: "Grit is grit, not gritty." },
    { start: 1, end: 2, text: "GRIT again", words: [{ start: 1, end: 2, text: "GRIT" }] },
  ];

  it("replaces whole words, any case, and counts them; times stay, word times are left to the server", () => {
    const out = replaceInSegments(segments, "grit", "resolve");
    expect(out.replaced).toBe(3);
    expect(out.segments).toEqual([
      { start: 0, end: 1, text: "resolve is resolve, not gritty." },
      { start: 1, end: 2, text: "resolve again" },
    ]);
  });

  it("case-sensitive and substring matching on request; a pattern's characters are literal", () => {
    expect(replaceInSegments(segments, "grit", "x", { caseSensitive: true }).replaced).toBe(1);
    expect(replaceInSegments(segments, "grit", "x", { wholeWord: false }).replaced).toBe(4);
    expect(replaceInSegments([{ start: 0, end: 1, text: "a.b a+b" }], "a.b", "c").segments[0]!.text).toBe("c a+b");
  });

  it("each segment keeps its speaker (word times are the server's to keep)", () => {
    const named = [
      { start: 0, end: 1, text: "grit matters", speaker: "Angela", words: [{ start: 0, end: 0.5, text: "grit" }] },
      { start: 1, end: 2, text: "indeed", speaker: "Host" },
      { start: 2, end: 3, text: "no one named" },
    ];
    expect(replaceInSegments(named, "grit", "resolve").segments).toEqual([
      { start: 0, end: 1, text: "resolve matters", speaker: "Angela" },
      { start: 1, end: 2, text: "indeed", speaker: "Host" },
      { start: 2, end: 3, text: "no one named" },
    ]);
  });
});
