import { describe, expect, it } from "vitest";
import { mergeSegments, splitSegment, withText, withTimes } from "@/lib/edits/segment-edits";
import type { Segment } from "@/lib/formats/types";

// A speaker-labelled line with its words' own times, as a podcast's transcript or a diarised upload gives it.
const line: Segment = {
  start: 10,
  end: 14,
  text: "grit is passion and perseverance",
  speaker: "Angela",
  words: [
    { start: 10, end: 10.5, text: "grit" },
    { start: 10.6, end: 10.8, text: "is" },
    { start: 11, end: 11.8, text: "passion" },
    { start: 12, end: 12.3, text: "and" },
    { start: 12.4, end: 14, text: "perseverance" },
  ],
};

describe("withText", () => {
  it("keeps the speaker and the times of the words it did not change; a new word shares its neighbours' gap", () => {
    const out = withText(line, "grit is passion and stamina");
    expect(out).toMatchObject({ start: 10, end: 14, text: "grit is passion and stamina", speaker: "Angela" });
    expect(out.words!.slice(0, 4)).toEqual(line.words!.slice(0, 4));
    expect(out.words![4]).toEqual({ start: 12.3, end: 14, text: "stamina" });
  });

  it("invents no word times for a line that had none, and leaves an unchanged line as it was", () => {
    const plain: Segment = { start: 0, end: 2, text: "hello there", speaker: "Host" };
    expect(withText(plain, "hello, there")).toEqual({ start: 0, end: 2, text: "hello, there", speaker: "Host" });
    expect(withText(line, line.text)).toBe(line);
  });
});

describe("withTimes", () => {
  it("keeps the speaker, the text and every word, clamped into the new bounds", () => {
    const out = withTimes(line, 10.7, 13);
    expect(out).toMatchObject({ start: 10.7, end: 13, text: line.text, speaker: "Angela" });
    expect(out.words!.map((w) => w.text)).toEqual(line.words!.map((w) => w.text));
    expect(out.words![0]).toEqual({ start: 10.7, end: 10.7, text: "grit" });
    expect(out.words![2]).toEqual(line.words![2]);
    expect(out.words![4]).toEqual({ start: 12.4, end: 13, text: "perseverance" });
  });
});

describe("splitSegment", () => {
  it("cuts at a word: both halves keep the speaker, each its own words, the cut where the second half starts", () => {
    const [a, b] = splitSegment(line, "grit is passion".length)!;
    expect(a).toEqual({
      start: 10,
      end: 12,
      text: "grit is passion",
      speaker: "Angela",
      words: line.words!.slice(0, 3),
    });
    expect(b).toEqual({ start: 12, end: 14, text: "and perseverance", speaker: "Angela", words: line.words!.slice(3) });
  });

  it("a word cut in two shares its time by its letters", () => {
    const [a, b] = splitSegment(line, "grit is pass".length)!;
    expect(a.text).toBe("grit is pass");
    expect(b.text).toBe("ion and perseverance");
    expect(a.words!.at(-1)).toEqual({ start: 11, end: 11.457, text: "pass" });
    expect(b.words![0]).toEqual({ start: 11.457, end: 11.8, text: "ion" });
    expect([a.end, b.start, a.speaker, b.speaker]).toEqual([11.457, 11.457, "Angela", "Angela"]);
  });

  it("without word times the time is shared by letters; nothing to cut off is no split", () => {
    const plain: Segment = { start: 0, end: 2, text: "ab cd", speaker: "Host" };
    expect(splitSegment(plain, 2)).toEqual([
      { start: 0, end: 1, text: "ab", speaker: "Host" },
      { start: 1, end: 2, text: "cd", speaker: "Host" },
    ]);
    expect(splitSegment(plain, 0)).toBeNull();
    expect(splitSegment(plain, 5)).toBeNull();
  });
});

describe("mergeSegments", () => {
  const [a, b] = splitSegment(line, "grit is passion".length)!;

  it("joins a split line back as it was", () => {
    expect(mergeSegments(a, b)).toEqual(line);
  });

  it("two speakers: the first's is kept (the author joined them); a line without one takes the second's", () => {
    expect(mergeSegments(a, { ...b, speaker: "Host" }).speaker).toBe("Angela");
    const { speaker: _none, ...rest } = a;
    const unnamed: Segment = rest;
    expect(mergeSegments(unnamed, { ...b, speaker: "Host" }).speaker).toBe("Host");
    expect("speaker" in mergeSegments(unnamed, { ...b, speaker: undefined })).toBe(false);
  });

  it("keeps word times only when both lines have them", () => {
    const { words: _w, ...plain } = b;
    const joined = mergeSegments(a, plain);
    expect(joined).toEqual({ start: 10, end: 14, text: line.text, speaker: "Angela" });
  });
});
