import { describe, expect, it } from "vitest";
import { MAX_INDEX_TOKENS, segmentProblems } from "@/lib/edits/validate";

const ok = [
  { start: 0, end: 1, text: "a" },
  { start: 1, end: 2, text: "b" },
];

describe("segmentProblems", () => {
  it("accepts ordered, non-overlapping segments within the duration", () => {
    expect(segmentProblems(ok, 2, [])).toEqual([]);
  });

  it("refuses overlaps, disorder, times past the end, bad words, in the contract's 422 items", () => {
    const problems = segmentProblems(
      [
        { start: 0, end: 1.5, text: "a" },
        { start: 1, end: 2, text: "b" },
        { start: 0.5, end: 3, text: "c", words: [{ start: 0, end: 1, text: "w" }] },
      ],
      2,
      [],
    );
    expect(problems.map((p) => p.loc)).toEqual([
      ["body", "segments", 1, "start"],
      ["body", "segments", 2, "end"],
      ["body", "segments", 2, "start"],
      ["body", "segments", 2, "words", 0],
    ]);
    expect(problems[0]).toMatchObject({ type: "value_error", msg: expect.stringMatching(/^Value error, overlaps/) });
  });

  it("keeps an overlap the current version already has (two speakers' manual captions)", () => {
    const overlapping = [
      { start: 0, end: 2, text: "a" },
      { start: 1, end: 3, text: "b" },
    ];
    expect(segmentProblems(overlapping, 3, overlapping)).toEqual([]);
    expect(segmentProblems(overlapping, 3, [])).toHaveLength(1);
  });

  it("refuses unstorable and empty text", () => {
    const problems = segmentProblems(
      [
        { start: 0, end: 1, text: "a\u0000" },
        { start: 1, end: 2, text: "\ud800" },
        { start: 2, end: 3, text: "  " },
      ],
      3,
      [],
    );
    expect(problems.map((p) => p.loc)).toEqual([
      ["body", "segments", 0, "text"],
      ["body", "segments", 1, "text"],
      ["body", "segments", 2, "text"],
    ]);
  });

  it("refuses an empty list", () => {
    expect(segmentProblems([], 10, [])).toHaveLength(1);
  });

  it(`refuses more than ${MAX_INDEX_TOKENS} words in all segments together (each is indexed for search)`, () => {
    const full = "a ".repeat(2500).trim();
    const segments = (count: number) => Array.from({ length: count }, (_, i) => ({ start: i, end: i + 1, text: full }));
    expect(segmentProblems(segments(MAX_INDEX_TOKENS / 2500), 1000, [])).toEqual([]);
    expect(segmentProblems(segments(MAX_INDEX_TOKENS / 2500 + 1), 1000, [])).toEqual([
      expect.objectContaining({
        loc: ["body", "segments"],
        msg: expect.stringMatching(
          new RegExp(`^Value error, at most ${MAX_INDEX_TOKENS} words in all segments together`),
        ),
      }),
    ]);
  });

  it("counts what search indexes, not the words between spaces: hyphen- and comma-joined words, CJK without spaces", () => {
    // Each segment is one "word" between spaces, but 1,000 to 4,998 tokens of the index.
    const shapes = {
      hyphen: Array.from({ length: 1000 }, (_, w) => `w${w}`).join("-"),
      comma: Array.from({ length: 1000 }, (_, w) => `w${w}`).join(","),
      cjk: "比特币".repeat(1666),
    };
    for (const [shape, text] of Object.entries(shapes)) {
      const segments = Array.from({ length: 110 }, (_, i) => ({ start: i, end: i + 1, text }));
      expect(segmentProblems(segments, 1000, []), shape).toEqual([
        expect.objectContaining({ loc: ["body", "segments"], msg: expect.stringContaining("as search counts them") }),
      ]);
      expect(segmentProblems(segments.slice(0, 20), 1000, []), shape).toEqual([]);
    }
  });
});
