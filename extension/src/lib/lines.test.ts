import { describe, expect, it } from "vitest";
import { lineAt, shownLines } from "./lines";

// The recorded YouTube caption track the fake serves (test/fakes/youtube/fixtures/recorded/GJLlxj_dtq8.en.xml).
const track = [
  { start: 0, end: 1.54, text: "Hey, this is just a test" },
  { start: 1.54, end: 5.7, text: "this is <i>not</i> the original transcript" },
  { start: 5, end: 5.5, text: "" },
  { start: 5.7, end: 8.939, text: "just something shorter, I made up for testing" },
];

describe("the line being said", () => {
  const lines = shownLines(track);

  it("drops empty lines", () => {
    expect(lines.map((line) => line.start)).toEqual([0, 1.54, 5.7]);
  });

  it("is the last line started by then", () => {
    expect(lineAt(lines, 0)).toBe(0);
    expect(lineAt(lines, 1.53)).toBe(0);
    expect(lineAt(lines, 1.54)).toBe(1);
    expect(lineAt(lines, 5.69)).toBe(1);
    expect(lineAt(lines, 5.7)).toBe(2);
    expect(lineAt(lines, 3600)).toBe(2);
  });

  it("is none before the first line, for no lines, and for a time that is not a number", () => {
    expect(lineAt([{ start: 2, end: 3, text: "a" }], 1)).toBe(-1);
    expect(lineAt([], 5)).toBe(-1);
    expect(lineAt(lines, Number.NaN)).toBe(-1);
  });

  it("orders lines by their start", () => {
    const out = shownLines([
      { start: 4, end: 5, text: " b " },
      { start: 1, end: 2, text: "a" },
    ]);
    expect(out).toEqual([
      { start: 1, end: 2, text: "a" },
      { start: 4, end: 5, text: "b" },
    ]);
  });
});
