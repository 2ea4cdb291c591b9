import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import type { Segment } from "@/lib/formats/types";
import { LINES, asrText, timeLines } from "@/test/fakes/youtube/fixtures/speech";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";

import { dedupe, isRollingTrack, longestOverlap, repeatedNgramCount, tidy } from "./dedup";
import { type Cue, parseJson3, parseSrv3, parseTranscriptXml, parseVtt } from "./index";

const DIR = fileURLToPath(new URL("../../../test/fakes/youtube/fixtures/timedtext/", import.meta.url));
const fixture = (name: string) => readFileSync(`${DIR}${FAKE_IDS.captioned}.${name}`, "utf8");

const joined = (segments: readonly Segment[]) => segments.map((s) => s.text).join(" ");

function expectMonotonic(segments: readonly Segment[]): void {
  segments.forEach((s, i) => {
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    const next = segments[i + 1];
    if (next) {
      expect(next.start).toBeGreaterThanOrEqual(s.start);
      expect(s.end).toBeLessThanOrEqual(next.start);
    }
  });
}

describe("dedupe on the auto-caption fixture", () => {
  const timed = timeLines();
  const formats: Array<[string, () => Cue[]]> = [
    ["json3", () => parseJson3(fixture("en.asr.json3"))],
    ["srv3", () => parseSrv3(fixture("en.asr.srv3"))],
    ["classic XML", () => parseTranscriptXml(fixture("en.asr.xml"))],
    ["WebVTT (rolling)", () => parseVtt(fixture("en.asr.vtt"))],
  ];

  it.each(formats)("%s: reads as the intended text, no repeated 4-grams, monotonic timing", (_name, parse) => {
    const segments = dedupe(parse());
    expect(joined(segments)).toBe(asrText());
    expect(repeatedNgramCount(segments, 4)).toBe(0);
    expect(segments).toHaveLength(LINES.length);
    expectMonotonic(segments);
    // Each line keeps the time it first appeared at.
    expect(segments.map((s) => s.start)).toEqual(timed.map((t) => t.startMs / 1000));
  });

  it("the rolling WebVTT form really repeats before de-dup", () => {
    const cues = parseVtt(fixture("en.asr.vtt"));
    expect(isRollingTrack(cues)).toBe(true);
    expect(repeatedNgramCount(cues, 4)).toBeGreaterThan(200);
    expect(joined(cues).split(" ").length).toBeGreaterThan(asrText().split(" ").length * 2.5);
  });

  it("json3 does not roll: its one cross-line repetition is the speaker's and stays", () => {
    const cues = parseJson3(fixture("en.asr.json3"));
    expect(isRollingTrack(cues.filter((c) => c.text !== ""))).toBe(false);
    const segments = dedupe(cues);
    const i = LINES.findIndex(([asr]) => asr === "the more you knead it the more");
    expect(segments[i]?.text).toBe("the more you knead it the more");
    expect(segments[i + 1]?.text).toBe("the more elastic that network gets");
  });

  it("json3 windows overlap in time; de-dup clips each line to the next one's start", () => {
    const cues = parseJson3(fixture("en.asr.json3")).filter((c) => c.text !== "");
    expect(cues.filter((c, i) => cues[i + 1] && c.end > (cues[i + 1] as Cue).start).length).toBeGreaterThan(30);
    const segments = dedupe(cues);
    segments.slice(0, -1).forEach((s, i) => expect(s.end).toBe(segments[i + 1]?.start));
  });
});

describe("dedupe on rolling cues", () => {
  it("removes the re-shown previous line and hold cues, keeping first-appearance timing", () => {
    const cues: Cue[] = [
      { start: 0.5, end: 3.17, text: "welcome to the series on neural network" },
      { start: 3.17, end: 3.18, text: "welcome to the series on neural network" },
      { start: 3.18, end: 6.65, text: "welcome to the series on neural network programming with pytorch" },
      { start: 6.65, end: 6.66, text: "programming with pytorch" },
      { start: 6.66, end: 9.2, text: "programming with pytorch in this episode" },
      { start: 9.2, end: 9.21, text: "in this episode" },
      { start: 9.21, end: 11, text: "in this episode yeah" },
      { start: 11, end: 11.01, text: "yeah" },
      { start: 11.01, end: 13, text: "yeah we will" },
    ];
    expect(dedupe(cues)).toEqual([
      { start: 0.5, end: 3.18, text: "welcome to the series on neural network" },
      { start: 3.18, end: 6.66, text: "programming with pytorch" },
      { start: 6.66, end: 9.21, text: "in this episode" },
      { start: 9.21, end: 11.01, text: "yeah" },
      { start: 11.01, end: 13, text: "we will" },
    ]);
  });

  it("a rolling json3-style track (each event re-shows the previous line) comes out clean", () => {
    const lines = LINES.map(([asr]) => asr);
    const cues: Cue[] = [];
    lines.forEach((line, i) => {
      const start = i * 3;
      if (i > 0) cues.push({ start: start - 0.01, end: start + 3, text: "", append: true });
      cues.push({ start, end: start + 6, text: i > 0 ? `${lines[i - 1]} ${line}` : line });
    });
    expect(repeatedNgramCount(cues.filter((c) => c.text !== ""))).toBeGreaterThan(150);
    const segments = dedupe(cues);
    expect(joined(segments)).toBe(asrText());
    expect(repeatedNgramCount(segments)).toBe(0);
    expectMonotonic(segments);
  });

  it("keeps a speaker's repetition inside a rolling track", () => {
    const cues: Cue[] = [
      { start: 0, end: 2, text: "so I think" },
      { start: 2, end: 2.01, text: "so I think" },
      { start: 2.01, end: 4, text: "so I think I think we should go" },
      { start: 4, end: 4.01, text: "I think we should go" },
      { start: 4.01, end: 6, text: "I think we should go now" },
    ];
    expect(joined(dedupe(cues))).toBe("so I think I think we should go now");
  });

  it("a one-word chance overlap after a cleared window is not removed", () => {
    const cues: Cue[] = [
      { start: 0, end: 2, text: "one two three" },
      { start: 2, end: 2.01, text: "one two three" },
      { start: 2.01, end: 4, text: "one two three four five" },
      { start: 4, end: 4.01, text: "four five" },
      { start: 9, end: 11, text: "five more minutes" },
    ];
    expect(joined(dedupe(cues))).toBe("one two three four five five more minutes");
  });

  it("folds appended text into the cue it continues, drops newline-only cues", () => {
    const cues: Cue[] = [
      { start: 0, end: 1, text: "hello" },
      { start: 1, end: 2, text: "there", append: true },
      { start: 1.99, end: 3, text: "", append: true },
      { start: 2, end: 3, text: "friend" },
    ];
    expect(dedupe(cues)).toEqual([
      { start: 0, end: 2, text: "hello there" },
      { start: 2, end: 3, text: "friend" },
    ]);
  });

  it("merges a cue repeated whole right after itself in a non-rolling track", () => {
    const cues: Cue[] = [
      { start: 0, end: 2, text: "[Music]" },
      { start: 2, end: 4, text: "[Music]" },
      { start: 4, end: 6, text: "hello everyone and welcome" },
      { start: 6, end: 8, text: "to the show tonight" },
      { start: 8, end: 10, text: "we have a great guest" },
    ];
    expect(dedupe(cues).map((s) => [s.start, s.end, s.text])).toEqual([
      [0, 4, "[Music]"],
      [4, 6, "hello everyone and welcome"],
      [6, 8, "to the show tonight"],
      [8, 10, "we have a great guest"],
    ]);
  });

  it("sorts out-of-order cues and handles empty input", () => {
    expect(dedupe([])).toEqual([]);
    expect(
      dedupe([
        { start: 5, end: 6, text: "b" },
        { start: 1, end: 2, text: "a" },
      ]),
    ).toEqual([
      { start: 1, end: 2, text: "a" },
      { start: 5, end: 6, text: "b" },
    ]);
  });
});

describe("tidy (manual captions)", () => {
  it("keeps repeated lines and overlapping times, drops empty cues", () => {
    const cues: Cue[] = [
      { start: 0, end: 3, text: "la la la" },
      { start: 2, end: 4, text: "la la la" },
      { start: 4, end: 5, text: "" },
    ];
    expect(tidy(cues)).toEqual([
      { start: 0, end: 3, text: "la la la" },
      { start: 2, end: 4, text: "la la la" },
    ]);
  });
});

describe("helpers", () => {
  it("longestOverlap", () => {
    expect(longestOverlap(["a", "b", "c"], ["b", "c", "d"])).toBe(2);
    expect(longestOverlap(["a", "b"], ["c"])).toBe(0);
    expect(longestOverlap(["x", "x"], ["x", "x", "x"])).toBe(2);
    expect(longestOverlap([], ["a"])).toBe(0);
  });

  it("repeatedNgramCount counts n-grams shared with the previous segment only", () => {
    const segs = [
      { start: 0, end: 1, text: "one two three four five" },
      { start: 1, end: 2, text: "two three four five six" },
      { start: 2, end: 3, text: "seven eight nine ten" },
      { start: 3, end: 4, text: "one two three four" },
    ];
    expect(repeatedNgramCount(segs, 4)).toBe(1);
    expect(repeatedNgramCount(segs, 2)).toBe(3);
    expect(repeatedNgramCount(segs.slice(0, 1))).toBe(0);
    expect(() => repeatedNgramCount(segs, 0)).toThrow(RangeError);
  });
});
