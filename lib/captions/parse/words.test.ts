/**
 * Word times (docs/decisions/0006-word-times-where-the-source-measured-them.md): every caption format that times
 * words gives them, de-duplication keeps each word once with its own time, and only automatic captions keep them. The
 * real files' in = out check is in real-files.test.ts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { FAKE_IDS } from "@/test/fakes/youtube/ids";

import {
  captionSegments,
  mergeHlsVtt,
  parseCaptions,
  parseJson3,
  parseSrv3,
  parseVtt,
  type CaptionFormat,
} from "./index";
import { wordTokens } from "./dedup";

const DIR = fileURLToPath(new URL("../../../test/fakes/youtube/fixtures/timedtext/", import.meta.url));
const fixture = (name: string) => readFileSync(`${DIR}${FAKE_IDS.captioned}.${name}`, "utf8");

describe("word times from each YouTube format", () => {
  const auto = (format: CaptionFormat) =>
    captionSegments(parseCaptions(fixture(`en.asr.${format}`), format), "auto").flatMap((s) => s.words ?? []);

  it("json3, srv3 and WebVTT of one automatic track give the same words at the same times", () => {
    const json3 = auto("json3");
    expect(json3.length).toBeGreaterThan(100);
    const key = (w: { text: string; start: number }) => `${w.start} ${w.text}`;
    expect(auto("srv3").map(key)).toEqual(json3.map(key));
    // WebVTT shows the track's first row ([Music]) with no timing tag above the first timed row.
    expect(auto("vtt").map(key)).toEqual(json3.map(key));
  });

  it("json3: tStartMs plus each seg's tOffsetMs; a word ends where the next starts", () => {
    const [cue] = parseJson3(
      JSON.stringify({
        events: [{ tStartMs: 2390, dDurationMs: 6831, segs: [{ utf8: "hey" }, { utf8: " everyone", tOffsetMs: 329 }] }],
      }),
    );
    expect(cue?.words).toEqual([
      { start: 2.39, end: 2.719, text: "hey" },
      { start: 2.719, end: 9.221, text: "everyone" },
    ]);
  });

  it("srv3: <p t> plus each <s t>, entities decoded", () => {
    const [cue] = parseSrv3(
      '<timedtext format="3"><body><p t="5685" d="6648" w="1"><s ac="0">today</s><s t="426" ac="0"> we&#39;re</s></p></body></timedtext>',
    );
    expect(cue?.words).toEqual([
      { start: 5.685, end: 6.111, text: "today" },
      { start: 6.111, end: 12.333, text: "we're" },
    ]);
  });

  it("WebVTT: the word before the first tag at the cue's start, each <c> word at its tag's time", () => {
    const vtt =
      "WEBVTT\n\n00:00:02.390 --> 00:00:05.675 align:start position:0%\n[Music]\nhey<00:00:02.719><c> everyone</c><00:00:03.324><c> welcome</c>\n";
    expect(parseVtt(vtt)[0]?.words).toEqual([
      { start: 2.39, end: 2.719, text: "hey" },
      { start: 2.719, end: 3.324, text: "everyone" },
      { start: 3.324, end: 5.675, text: "welcome" },
    ]);
  });

  it("a line timed as a whole (a manual event, a row of several words without tags) gives no words", () => {
    expect(parseVtt("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there\n")[0]?.words).toBeUndefined();
    expect(parseJson3(JSON.stringify({ events: [{ tStartMs: 0, segs: [{ utf8: "Hello there" }] }] }))[0]?.words).toBe(
      undefined,
    );
  });

  it("HLS: word times move with their segment's X-TIMESTAMP-MAP", () => {
    const seg = (mpegts: number) =>
      `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${mpegts},LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000\nhi<00:00:01.500><c> there</c>\n`;
    const [, second] = mergeHlsVtt([seg(900000), seg(900000 + 90000 * 10)]);
    expect(second?.words).toEqual([
      { start: 11, end: 11.5, text: "hi" },
      { start: 11.5, end: 12, text: "there" },
    ]);
  });
});

describe("which tracks keep word times", () => {
  const cues = parseJson3(fixture("en.asr.json3"));

  it("automatic captions keep them; manual and machine-translated tracks have none", () => {
    expect(captionSegments(cues, "auto").some((s) => s.words)).toBe(true);
    expect(captionSegments(cues, "manual").some((s) => s.words)).toBe(false);
    expect(captionSegments(cues, "translated").some((s) => s.words)).toBe(false);
  });
});

describe("wordTokens", () => {
  it("finds the words from the end: an untimed upper row above them keeps none", () => {
    expect(
      wordTokens("a b a b", [
        { start: 1, end: 2, text: "a" },
        { start: 2, end: 3, text: "b" },
      ]),
    ).toEqual([2, 3]);
  });

  it("several words of a script without spaces share one token", () => {
    expect(
      wordTokens("今日は いい", [
        { start: 0, end: 1, text: "今日" },
        { start: 1, end: 2, text: "は" },
        { start: 2, end: 3, text: "いい" },
      ]),
    ).toEqual([0, 0, 1]);
  });
});
