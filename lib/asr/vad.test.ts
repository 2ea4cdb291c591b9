import { describe, expect, it } from "vitest";

import {
  FRAME_SECONDS,
  JOIN_SILENCE_SECONDS,
  MERGE_GAP_SECONDS,
  PAD_SECONDS,
  planSpeechChunks,
  speechRegions,
  toFileTime,
} from "./vad";

/** Frame probabilities: `p` from `from` to `to` seconds, 0 elsewhere. */
function probs(duration: number, spans: Array<[number, number, number?]>): number[] {
  const out = new Array<number>(Math.ceil(duration / FRAME_SECONDS)).fill(0);
  for (const [from, to, p = 0.9] of spans)
    for (let i = Math.floor(from / FRAME_SECONDS); i < Math.floor(to / FRAME_SECONDS); i++) out[i] = p;
  return out;
}

describe("speechRegions", () => {
  it("no frame over the threshold: no region (silence or music ends no_speech)", () => {
    expect(speechRegions(probs(60, []), 60)).toEqual([]);
    expect(speechRegions(probs(60, [[10, 20, 0.45]]), 60)).toEqual([]);
  });

  it("pads speech, drops blips under 0.25 s, merges regions closer than the merge gap", () => {
    const regions = speechRegions(
      probs(60, [
        [5, 10],
        [10.5, 12], // 0.5 s pause: the same region
        [20, 20.1], // a click
        [30, 35],
      ]),
      60,
    );
    expect(regions).toHaveLength(2);
    expect(regions[0].start).toBeCloseTo(5 - PAD_SECONDS, 1);
    expect(regions[0].end).toBeCloseTo(12 + PAD_SECONDS, 1);
    expect(regions[1].start).toBeCloseTo(30 - PAD_SECONDS, 1);
    expect(regions[1].end).toBeCloseTo(35 + PAD_SECONDS, 1);
  });

  it("keeps regions apart when the silence between them is longer than the merge gap", () => {
    const gap = MERGE_GAP_SECONDS + 2 * PAD_SECONDS + 0.5;
    expect(
      speechRegions(
        probs(30, [
          [1, 5],
          [5 + gap, 10 + gap],
        ]),
        30,
      ),
    ).toHaveLength(2);
  });

  it("padding stays inside the file", () => {
    expect(speechRegions(probs(4, [[0, 4]]), 4)).toEqual([{ start: 0, end: 4 }]);
  });
});

describe("planSpeechChunks and toFileTime", () => {
  it("packs regions into chunks of at most the chunk length, in order", () => {
    const regions = Array.from({ length: 10 }, (_, i) => ({ start: i * 100, end: i * 100 + 50 }));
    const chunks = planSpeechChunks(regions, 300, 5);
    expect(chunks.map((c) => c.pieces.length)).toEqual([5, 5]);
    for (const c of chunks) {
      const joined = c.pieces.reduce((s, p) => s + p.end - p.start, 0) + (c.pieces.length - 1) * JOIN_SILENCE_SECONDS;
      expect(joined).toBeLessThanOrEqual(300);
    }
    expect(chunks[1].start).toBe(500);
  });

  it("cuts a region longer than a chunk into overlapping pieces", () => {
    const chunks = planSpeechChunks([{ start: 10, end: 710 }], 300, 5);
    expect(chunks.map((c) => c.pieces)).toEqual([
      [{ start: 10, end: 310 }],
      [{ start: 305, end: 605 }],
      [{ start: 600, end: 710 }],
    ]);
  });

  it("maps a time in the joined audio back to the file's clock", () => {
    const pieces = [
      { start: 10, end: 20 },
      { start: 50, end: 55 },
    ];
    expect(toFileTime(pieces, 0)).toBe(10);
    expect(toFileTime(pieces, 9.5)).toBe(19.5);
    expect(toFileTime(pieces, 10 + JOIN_SILENCE_SECONDS + 1)).toBeCloseTo(51);
    expect(toFileTime(pieces, 100)).toBe(55);
  });
});
