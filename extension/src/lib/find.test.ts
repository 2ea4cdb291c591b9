import { describe, expect, it } from "vitest";
import { findMatches, markLine } from "./find";

const lines = [
  { text: "Hey, this is just a test" },
  { text: "This is not the original — THIS is" },
  { text: "Café crème" },
];

describe("find in the transcript", () => {
  it("finds every occurrence, whatever the case, in reading order", () => {
    expect(findMatches(lines, "this")).toEqual([
      { line: 0, from: 5, to: 9 },
      { line: 1, from: 0, to: 4 },
      { line: 1, from: 27, to: 31 },
    ]);
  });

  it("ignores accents both ways, keeping the original's offsets", () => {
    expect(findMatches(lines, "cafe creme")).toEqual([{ line: 2, from: 0, to: 10 }]);
    expect(findMatches(lines, "CRÈME")).toEqual([{ line: 2, from: 5, to: 10 }]);
  });

  it("finds nothing for a blank query", () => {
    expect(findMatches(lines, "  ")).toEqual([]);
  });

  it("cuts a line at its matches, each numbered among all the matches", () => {
    const matches = findMatches(lines, "is");
    expect(markLine(lines[1].text, 1, matches)).toEqual([
      { text: "Th", match: null },
      { text: "is", match: 2 },
      { text: " ", match: null },
      { text: "is", match: 3 },
      { text: " not the original — TH", match: null },
      { text: "IS", match: 4 },
      { text: " ", match: null },
      { text: "is", match: 5 },
    ]);
  });

  it("leaves a line without matches whole", () => {
    expect(markLine("no hits here", 0, [])).toEqual([{ text: "no hits here", match: null }]);
    expect(markLine("", 0, [])).toEqual([{ text: "", match: null }]);
  });
});
