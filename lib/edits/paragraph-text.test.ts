import { describe, expect, it } from "vitest";
import type { Segment } from "@/lib/formats/types";
import { PARAGRAPH_LCS_CELLS, paragraphText, redistributeParagraph } from "@/lib/edits/paragraph-text";
import { readingParagraphs } from "@/lib/formats/paragraphs";

const seg = (start: number, text: string, words?: Segment["words"]): Segment =>
  words ? { start, end: start + 1, text, words } : { start, end: start + 1, text };

// Segment 0 and 4 lie outside the paragraph [1, 4).
const transcript: Segment[] = [
  seg(0, "Before it."),
  seg(1, "the quick brown", [
    { start: 1, end: 1.3, text: "the" },
    { start: 1.3, end: 1.6, text: "quick" },
    { start: 1.6, end: 2, text: "brown" },
  ]),
  seg(2, "fox jumps\nover"),
  seg(3, "the lazy dog."),
  seg(4, "After it."),
];
const texts = (segments: readonly Segment[]) => segments.map((s) => s.text);

describe("paragraphText", () => {
  it("joins the paragraph's segments with single spaces, line breaks included", () => {
    expect(paragraphText(transcript, 1, 4)).toBe("the quick brown fox jumps over the lazy dog.");
  });
});

describe("redistributeParagraph", () => {
  it("gives back the same list when no word changed (spacing and line breaks are not changes)", () => {
    expect(redistributeParagraph(transcript, 1, 4, "  the quick brown\nfox jumps over the lazy dog. ")).toBe(
      transcript,
    );
  });

  it("a replaced word stays in its segment; untouched segments are kept whole, word times and line breaks included", () => {
    const out = redistributeParagraph(transcript, 1, 4, "the quick brown fox leaps over the lazy dog.");
    expect(texts(out)).toEqual(["Before it.", "the quick brown", "fox leaps over", "the lazy dog.", "After it."]);
    expect(out[1]).toBe(transcript[1]);
    expect(out[0]).toBe(transcript[0]);
    expect(out[4]).toBe(transcript[4]);
    expect(out[2]).toEqual({ start: 2, end: 3, text: "fox leaps over" });
  });

  it("a changed segment loses its word times (the server retimes them) and keeps its own times", () => {
    const out = redistributeParagraph(transcript, 1, 4, "the quick red fox jumps over the lazy dog.");
    expect(out[1]).toEqual({ start: 1, end: 2, text: "the quick red" });
    expect(out[2]).toBe(transcript[2]);
  });

  it("a changed segment keeps its speaker, so the paragraph stays where it was (no merge into the one before)", () => {
    const named: Segment[] = [
      { start: 0, end: 1, text: "Welcome to the show." },
      { start: 1, end: 2, text: "Thanks for havng me.", speaker: "Alban" },
      { start: 2, end: 3, text: "Glad you came.", speaker: "Alban" },
    ];
    const paragraphs = readingParagraphs(named);
    expect(paragraphs.map((p) => [p.from, p.speaker])).toEqual([
      [0, undefined],
      [1, "Alban"],
    ]);
    const corrected = redistributeParagraph(named, 1, 3, "Thanks for having me. Glad you came.");
    expect(corrected[1]).toEqual({ start: 1, end: 2, text: "Thanks for having me.", speaker: "Alban" });
    expect(readingParagraphs(corrected)).toEqual(paragraphs);
  });

  it("inserted words join the segment of the word before them; at the very start, the word after", () => {
    const out = redistributeParagraph(transcript, 1, 4, "so the quick brown fox jumps over, well, over the lazy dog.");
    expect(texts(out).slice(1, 4)).toEqual(["so the quick brown", "fox jumps over, well, over", "the lazy dog."]);
  });

  it("deleted words leave their segment; a segment left empty is dropped", () => {
    const out = redistributeParagraph(transcript, 1, 4, "the quick brown dog.");
    expect(texts(out)).toEqual(["Before it.", "the quick brown", "dog.", "After it."]);
    expect(out[1]).toBe(transcript[1]);
    expect(out[2]).toEqual({ start: 3, end: 4, text: "dog." });
  });

  it("a rewritten run is spread over the segments it replaces, in proportion to their words", () => {
    const out = redistributeParagraph(transcript, 1, 4, "one two three four five six seven eight nine");
    expect(texts(out).slice(1, 4)).toEqual(["one two three", "four five six", "seven eight nine"]);
  });

  it("words that moved are matched in order (a longest common subsequence), not by position", () => {
    const out = redistributeParagraph(transcript, 1, 4, "quick brown the fox jumps over the lazy dog.");
    // "the" left the front and came back after "brown": the kept words stay put, the new one joins "brown".
    expect(texts(out).slice(1, 4)).toEqual(["quick brown the", "fox jumps\nover", "the lazy dog."]);
    expect(out[2]).toBe(transcript[2]);
  });

  it("past the matching bound, the changed middle is spread over its segments rather than matched", () => {
    const many = Array.from({ length: 600 }, (_, i) => seg(i, `w${i}`));
    const text = many.map((s, i) => (i === 0 || i === 599 ? s.text : `x${i}`)).join(" ");
    expect(598 * 598).toBeGreaterThan(PARAGRAPH_LCS_CELLS);
    const out = redistributeParagraph(many, 0, 600, text);
    expect(out).toHaveLength(600);
    expect(out[0]).toBe(many[0]);
    expect(out[300].text).toBe("x300");
    expect(out[599]).toBe(many[599]);
  });
});
