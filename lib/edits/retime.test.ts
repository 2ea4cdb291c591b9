import { describe, expect, it } from "vitest";
import { followTimings, retimeSegment } from "@/lib/edits/retime";
import { diffBudget, diffTokens, tokenize } from "@/lib/edits/word-diff";
import type { Segment } from "@/lib/formats/types";

const timed: Segment = {
  start: 10,
  end: 14,
  text: "we met doctor smith today",
  words: [
    { start: 10, end: 10.5, text: "we" },
    { start: 10.5, end: 11, text: "met" },
    { start: 11, end: 12, text: "doctor" },
    { start: 12, end: 13, text: "smith" },
    { start: 13, end: 14, text: "today" },
  ],
};

describe("diffTokens", () => {
  it("finds the few changed words of a long sequence", () => {
    const a = tokenize("the quick brown fox jumps over the lazy dog");
    const b = tokenize("the quick red fox jumps over the very lazy dog");
    const runs = diffTokens(a, b).filter((r) => r.op !== "equal");
    expect(runs).toEqual([
      { op: "delete", from: 2, at: 2, tokens: ["brown"] },
      { op: "insert", from: 2, at: 3, tokens: ["red"] },
      { op: "insert", from: 7, at: 7, tokens: ["very"] },
    ]);
  });

  it("replays into the new sequence: equal and inserted tokens, in order", () => {
    const a = tokenize("a b c d e f g h");
    const b = tokenize("x a c d y e g h z");
    const rebuilt = diffTokens(a, b).flatMap((r) => (r.op === "delete" ? [] : r.tokens));
    expect(rebuilt).toEqual(b);
    const kept = diffTokens(a, b).flatMap((r) => (r.op === "insert" ? [] : r.tokens));
    expect(kept).toEqual(a);
  });

  it("past maxEdits, one replacement (still a correct diff)", () => {
    const runs = diffTokens(["a", "b", "c"], ["x", "y", "z"], 1);
    expect(runs.map((r) => r.op)).toEqual(["delete", "insert"]);
  });
});

describe("retimeSegment", () => {
  it("keeps unchanged words' times; a replaced word takes the replaced word's time", () => {
    const out = retimeSegment(timed, { start: 10, end: 14, text: "we met doctor Smyth today" });
    expect(out.words).toEqual([
      { start: 10, end: 10.5, text: "we" },
      { start: 10.5, end: 11, text: "met" },
      { start: 11, end: 12, text: "doctor" },
      { start: 12, end: 13, text: "Smyth" },
      { start: 13, end: 14, text: "today" },
    ]);
  });

  it("spreads two new words over the time of the one they replace", () => {
    const out = retimeSegment(timed, { start: 10, end: 14, text: "we met doctor Anna Smith today" });
    expect(out.words!.slice(3, 5)).toEqual([
      { start: 12, end: 12.5, text: "Anna" },
      { start: 12.5, end: 13, text: "Smith" },
    ]);
    expect(out.words![5]).toEqual({ start: 13, end: 14, text: "today" });
  });

  it("a new word at the end fills up to the segment's end; kept words are clamped into new bounds", () => {
    const out = retimeSegment(timed, { start: 10.2, end: 13.5, text: "we met doctor smith" });
    expect(out.words![0]).toEqual({ start: 10.2, end: 10.5, text: "we" });
    expect(out.words![3]).toEqual({ start: 12, end: 13, text: "smith" });
  });

  it("a segment without word times gets none invented", () => {
    const out = retimeSegment({ start: 1, end: 2, text: "helo" }, { start: 1, end: 2, text: "hello" });
    expect(out).toEqual({ start: 1, end: 2, text: "hello" });
  });
});

describe("followTimings", () => {
  it("matches segments by their times, or by index when the list kept its length", () => {
    const current: Segment[] = [{ start: 0, end: 1, text: "one" }, timed];
    const out = followTimings(current, [
      { start: 0, end: 1, text: "one" },
      { start: 9.9, end: 14, text: "we met doctor Smyth today" },
    ]);
    expect(out[0]).toBe(current[0]);
    expect(out[1]!.words![0]).toEqual({ start: 10, end: 10.5, text: "we" });
    expect(out[1]!.words![3]).toEqual({ start: 12, end: 13, text: "Smyth" });
  });

  it("keeps the caller's own word times", () => {
    const words = [{ start: 10, end: 14, text: "hi" }];
    expect(followTimings([timed], [{ start: 10, end: 14, text: "hi", words }])[0]!.words).toBe(words);
  });
});

describe("retiming under the save's diff budget", () => {
  const inOrderInside = (segment: Segment) =>
    segment.words!.every(
      (w, i) =>
        w.start >= segment.start &&
        w.end <= segment.end &&
        w.end >= w.start &&
        (i === 0 || w.start >= segment.words![i - 1]!.start),
    );

  it("with budget left, the words between changes keep their times", () => {
    const out = retimeSegment(timed, { start: 10, end: 14, text: "they met a doctor Smith yesterday" });
    expect(out.words!.find((w) => w.text === "met")).toEqual({ start: 10.5, end: 11, text: "met" });
    expect(out.words!.find((w) => w.text === "doctor")).toEqual({ start: 11, end: 12, text: "doctor" });
  });

  it("once it is spent: the common first and last words keep their times, the others share the time between", () => {
    const out = retimeSegment(timed, { start: 10, end: 14, text: "we saw doctor Smith today" }, diffBudget(0));
    expect(out.words).toEqual([
      { start: 10, end: 10.5, text: "we" },
      { start: 10.5, end: 11.333, text: "saw" },
      { start: 11.333, end: 12.167, text: "doctor" },
      { start: 12.167, end: 13, text: "Smith" },
      { start: 13, end: 14, text: "today" },
    ]);
    const coarse = retimeSegment(
      timed,
      { start: 10, end: 14, text: "they met a doctor Smith yesterday" },
      diffBudget(0),
    );
    expect(coarse.words).toHaveLength(6);
    expect(inOrderInside(coarse)).toBe(true);
  });

  it("every segment of a save draws from one budget; words stay in order inside their segment, also where old word times overlap", () => {
    const overlapping: Segment = {
      start: 0,
      end: 4,
      text: "one two three four",
      words: [
        { start: 0, end: 2.5, text: "one" },
        { start: 1, end: 3.5, text: "two" },
        { start: 2, end: 4, text: "three" },
        { start: 2, end: 4, text: "four" },
      ],
    };
    const current: Segment[] = Array.from({ length: 30 }, (_, i) => ({
      ...timed,
      start: i * 4,
      end: i * 4 + 4,
      words: timed.words!.map((w) => ({ ...w, start: w.start - 10 + i * 4, end: w.end - 10 + i * 4 })),
    }));
    const edited = current.map((s) => ({ start: s.start, end: s.end, text: "they met a doctor Smith yesterday" }));
    const budget = diffBudget(200);
    const out = followTimings(current, edited, budget);
    expect(budget.left).toBeLessThanOrEqual(0);
    expect(budget.used).toBeLessThanOrEqual(200);
    // The first segments were aligned word by word; the last ones past the budget were not.
    expect(out[0]!.words!.find((w) => w.text === "met")).toMatchObject({ start: 0.5, end: 1 });
    expect(out[29]!.words!.find((w) => w.text === "met")!.start).not.toBe(116.5);
    expect(out.every(inOrderInside)).toBe(true);
    const squeezed = retimeSegment(overlapping, { start: 0, end: 4, text: "one new words four" }, diffBudget(0));
    expect(inOrderInside(squeezed)).toBe(true);
  });
});

describe("replaceInSegments (lib/edits/find-replace.ts)", () => {
  it("replaces whole words in any case, leaves other segments as they are", async () => {
    const { replaceInSegments } = await import("@/lib/edits/find-replace");
    const segments: Segment[] = [timed, { start: 20, end: 21, text: "Smith, smithy and SMITH." }];
    const out = replaceInSegments(segments, "smith", "Smyth");
    expect(out.replaced).toBe(3);
    expect(out.segments[1]!.text).toBe("Smyth, smithy and Smyth.");
    // The changed word takes the time between its kept neighbours (here the one it replaced); the others keep theirs.
    expect(out.segments[0]!.words).toEqual(timed.words!.map((w) => (w.text === "smith" ? { ...w, text: "Smyth" } : w)));
    expect(replaceInSegments(segments, "nothing", "x").segments[0]).toBe(timed);
  });
});

describe("diffSegments (the revision diff)", () => {
  it("scattered edits across a long transcript: segments first, then words; every change found", async () => {
    const { diffSegments } = await import("@/lib/edits/segments-diff");
    const a: Segment[] = Array.from({ length: 5000 }, (_, i) => ({ start: i, end: i + 1, text: `w${i} x${i} y${i}` }));
    // Every second segment changed (2,500 edits: past what one word-level diff aligns exactly), one removed, one added.
    const b: Segment[] = a.map((s, i) => (i % 2 === 0 ? { ...s, text: s.text.replace(/^w/, "W") } : s));
    b.splice(101, 1);
    b.push({ start: 6000, end: 6001, text: "the end" });
    const diff = diffSegments(a, b);
    expect(diff.changes.filter((c) => c.op === "replace")).toHaveLength(2500);
    expect(diff.changes[0]).toEqual({
      op: "replace",
      original: "w0",
      revision: "W0",
      original_start: 0,
      revision_start: 0,
    });
    expect(diff.changes.filter((c) => c.op === "delete")).toEqual([
      { op: "delete", original: "w101 x101 y101", revision: "", original_start: 101, revision_start: 102 },
    ]);
    expect(diff.changes.at(-1)).toMatchObject({ op: "insert", revision: "the end", revision_start: 6000 });
    expect(diff.unchanged_words).toBe(15000 - 2500 - 3);
  });
});
