import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { compressionRatio, guardWords, loopRepeats, type SegmentStats, type TimeRange } from "./hallucination";
import { joinWords } from "./segment-words";
import type { Word } from "./types";

interface FixtureSegment {
  start: number;
  end: number;
  text: string;
  no_speech_prob?: number | null;
  avg_logprob?: number | null;
  compression_ratio?: number | null;
}
interface FixtureCase {
  id: string;
  segments: FixtureSegment[];
  speech?: TimeRange[];
  expect: string;
}

const fixture = JSON.parse(
  readFileSync(path.join(process.cwd(), "test/fixtures/asr-hallucinations/cases.json"), "utf8"),
) as { cases: FixtureCase[]; controls: FixtureCase[] };

/** A segment's words spread over its time, as verbose_json's segment-only answers are read. */
function words(segments: FixtureSegment[]): Word[] {
  return segments.flatMap((s) => {
    const tokens = s.text.trim().split(/\s+/);
    const step = (s.end - s.start) / tokens.length;
    return tokens.map((text, i) => ({ text, start: s.start + i * step, end: s.start + (i + 1) * step }));
  });
}

function run(c: FixtureCase) {
  const segments: SegmentStats[] = c.segments.map((s) => ({
    start: s.start,
    end: s.end,
    noSpeechProb: s.no_speech_prob,
    avgLogprob: s.avg_logprob,
    compressionRatio: s.compression_ratio,
  }));
  return guardWords(words(c.segments), { speech: c.speech, segments });
}

describe("guardWords on real hallucinations from issue reports", () => {
  it.each(fixture.cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const result = run(c);
    expect(joinWords(result.words.map((w) => w.text))).toBe(c.expect);
    expect(Object.values(result.dropped).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it.each(fixture.controls.map((c) => [c.id, c] as const))("keeps real speech: %s", (_id, c) => {
    const result = run(c);
    expect(joinWords(result.words.map((w) => w.text))).toBe(c.expect);
    expect(result.dropped).toEqual({});
  });
});

describe("the rules one by one", () => {
  it("compression ratio: Whisper's zlib measure, over 2.4 for a loop, under it for prose", () => {
    expect(compressionRatio("Thanks for watching! ".repeat(10))).toBeGreaterThan(2.4);
    expect(compressionRatio("The quick brown fox jumps over the lazy dog near the riverbank.")).toBeLessThan(2.4);
  });

  it("a window whose text compresses too well is dropped even when no phrase repeats back to back", () => {
    // Three words in a pseudo-random order: no phrase repeats back to back three times, yet it compresses.
    const shuffled = (seed: number) =>
      Array.from({ length: 80 }, () => ["alpha", "beta", "gamma"][(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 3]);
    let seed = 1;
    while (loopRepeats(shuffled(seed).map((t) => ({ text: t }))).size > 0) seed++;
    const text = shuffled(seed);
    const ws = text.map((t, i) => ({ text: t, start: i * 0.3, end: i * 0.3 + 0.3 }));
    const result = guardWords(ws);
    expect(result.words).toEqual([]);
    expect(result.dropped.compression_ratio).toBe(ws.length);
  });

  it("Whisper's silent-window rule needs both no_speech_prob > 0.6 and avg_logprob < -1", () => {
    const ws = [{ text: "Hello.", start: 1, end: 2 }];
    expect(guardWords(ws, { segments: [{ start: 0, end: 3, noSpeechProb: 0.9, avgLogprob: -1.2 }] }).words).toEqual([]);
    expect(guardWords(ws, { segments: [{ start: 0, end: 3, noSpeechProb: 0.9, avgLogprob: -0.2 }] }).words).toEqual(ws);
    expect(guardWords(ws, { segments: [{ start: 0, end: 3, compressionRatio: 2.6 }] }).dropped).toEqual({
      compression_ratio: 1,
    });
  });

  it("a loop of one word needs five in a row; of a phrase, three", () => {
    const w = (s: string) => s.split(" ").map((text) => ({ text }));
    expect(loopRepeats(w("you you you you")).size).toBe(0);
    expect([...loopRepeats(w("you you you you you"))]).toEqual([1, 2, 3, 4]);
    expect(loopRepeats(w("thank you thank you")).size).toBe(0);
    expect([...loopRepeats(w("a b thank you thank you thank you c"))]).toEqual([4, 5, 6, 7]);
  });
});
