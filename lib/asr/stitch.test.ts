import { describe, expect, it } from "vitest";
import { stitchChunks } from "./stitch";
import type { Word } from "./types";

const w = (text: string, start: number, end = start + 0.4): Word => ({ text, start, end });

describe("stitchChunks", () => {
  it("passes a single chunk through", () => {
    const words = [w("a", 0), w("b", 1)];
    expect(stitchChunks([{ start: 0, end: 2, words }])).toEqual(words);
  });

  it("aligns the overlap by matching words and keeps each word once", () => {
    // Chunk 1: 0–10 s, chunk 2: 8–18 s. Both hear "seven eight nine" in the overlap; chunk 1 mishears
    // the word cut at its end, chunk 2 the one cut at its start.
    const first = [w("one", 6), w("seven", 8.1), w("eight", 8.9), w("nine", 9.5), w("te", 9.9)];
    const second = [w("en", 8.0), w("seven", 8.12), w("eight", 8.88), w("nine", 9.52), w("ten", 9.9), w("eleven", 11)];
    const out = stitchChunks([
      { start: 0, end: 10, words: first },
      { start: 8, end: 18, words: second },
    ]);
    expect(out.map((x) => x.text)).toEqual(["one", "seven", "eight", "nine", "ten", "eleven"]);
    // The cut is in the middle of the matched run: "seven eight" from chunk 1, the rest from chunk 2.
    expect(out[2]).toEqual(first[2]);
    expect(out[3]).toEqual(second[3]);
  });

  it("ignores case and punctuation when matching", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("Hello", 8.2), w("world.", 8.8)] },
      { start: 8, end: 18, words: [w("hello,", 8.21), w("World", 8.79), w("again", 10)] },
    ]);
    expect(out.map((x) => x.text)).toEqual(["Hello", "World", "again"]);
  });

  it("does not match equal words heard at different times", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("the", 5), w("cat", 8.2)] },
      { start: 8, end: 18, words: [w("dog", 8.3), w("the", 9.6), w("end", 12)] },
    ]);
    // No alignment: cut at the overlap's middle (9 s); "dog" starts before "cat" ends and is dropped.
    expect(out.map((x) => x.text)).toEqual(["the", "cat", "the", "end"]);
  });

  it("falls back to the middle of the overlap, dropping words that start before the last kept one ends", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("a", 7), w("b", 8.7, 9.2), w("c", 9.6)] },
      { start: 8, end: 18, words: [w("x", 8.6), w("y", 9.1), w("z", 9.3), w("q", 12)] },
    ]);
    expect(out.map((x) => x.text)).toEqual(["a", "b", "z", "q"]);
  });

  it("keeps the words of the overlap when only one chunk heard them", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("a", 7), w("b", 9.3)] },
      { start: 8, end: 18, words: [w("c", 12)] },
      { start: 16, end: 26, words: [w("d", 16.5), w("e", 20)] },
    ]);
    expect(out.map((x) => x.text)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("appends chunks that do not overlap", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("a", 1)] },
      { start: 10, end: 20, words: [w("b", 11)] },
    ]);
    expect(out.map((x) => x.text)).toEqual(["a", "b"]);
  });

  it("keeps start times non-decreasing", () => {
    const out = stitchChunks([
      { start: 0, end: 10, words: [w("a", 1), w("b", 0.5), w("c", 2)] },
      { start: 8, end: 18, words: [w("d", 12)] },
    ]);
    for (let i = 1; i < out.length; i++) expect(out[i].start).toBeGreaterThanOrEqual(out[i - 1].start);
  });
});
