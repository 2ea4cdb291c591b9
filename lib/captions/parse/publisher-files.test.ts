import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { parseCaptions } from "./index";

// What podcast publishers' own files do that the formats' specifications do not allow, read without losing words.

describe("WebVTT with seconds-only times", () => {
  // Podnews writes a time under a minute as seconds alone; the format (and browsers) want mm:ss.ttt.
  const PODNEWS_STYLE = [
    "WEBVTT",
    "",
    "0.860 --> 7.380",
    "<v James Cridland>Podcasting news, as it happens.",
    "",
    "7.380 --> 59.120",
    "<v James Cridland>A new member for the AMP.",
    "",
    "59.120 --> 01:02.500",
    "<v James Cridland>And finally, this.",
    "",
    "01:02.500 --> 00:01:05.000",
    "<v Sam Sethi>Thanks, James.",
    "",
  ].join("\n");

  it("reads each cue, with its times and voice", () => {
    expect(parseCaptions(PODNEWS_STYLE, "vtt").map(({ start, end, speaker }) => [start, end, speaker])).toEqual([
      [0.86, 7.38, "James Cridland"],
      [7.38, 59.12, "James Cridland"],
      [59.12, 62.5, "James Cridland"],
      [62.5, 65, "Sam Sethi"],
    ]);
  });

  it("reads a clock whose seconds run past 59 (a real podcast SRT's `00:00:90,740`) by arithmetic", () => {
    // AntennaPod's test SRT (test/fixtures/feeds/README.md): 3 cues, 16 words, read whole.
    const body = readFileSync("test/fixtures/feeds/antennapod-speakers.srt", "utf8");
    const dropped = { cues: 0, words: 0 };
    const cues = parseCaptions(body, "podcast-srt", dropped);
    expect(cues.map(({ start, end, speaker }) => [start, end, speaker])).toEqual([
      [0, 50.73, "John Doe"],
      [90.74, 91.6, "John Doe"],
      [91.73, 93.6, "John Doe"],
    ]);
    expect(dropped).toEqual({ cues: 0, words: 0 });
  });

  it("still drops a timing line that is no time at all", () => {
    const cues = parseCaptions("WEBVTT\n\nabc --> 1.5\nlost\n\n1.5 --> 2\nkept\n", "vtt");
    expect(cues.map((c) => c.text)).toEqual(["kept"]);
  });
});

describe("what a file loses in reading is counted", () => {
  it("counts a WebVTT or SRT cue under a timing line that is no time, with its words", () => {
    const dropped = { cues: 0, words: 0 };
    const vtt = "WEBVTT\n\n1.0 --> 2.0\nkept here\n\n1:2:3 --> 4\n<v Ann>three lost words\n\nx --> y\n\n";
    expect(parseCaptions(vtt, "vtt", dropped).map((c) => c.text)).toEqual(["kept here"]);
    expect(dropped).toEqual({ cues: 1, words: 3 });

    const srtDropped = { cues: 0, words: 0 };
    parseCaptions("1\n00:00:01,000 --> 00:00:02,000\nkept\n\n2\n00:00:90 --> soon\nlost one\n", "srt", srtDropped);
    expect(srtDropped).toEqual({ cues: 1, words: 2 });
  });

  it("counts a Podcasting 2.0 JSON segment without usable times; nothing for a file read whole", () => {
    const dropped = { cues: 0, words: 0 };
    const body = JSON.stringify({
      segments: [
        { startTime: 0, endTime: 1, body: "Hello there." },
        { startTime: "soon", endTime: 2, body: "Lost words here." },
        { startTime: 3, endTime: 2, body: "Backwards." },
      ],
    });
    parseCaptions(body, "podcast-json", dropped);
    expect(dropped).toEqual({ cues: 2, words: 4 });

    const whole = { cues: 0, words: 0 };
    parseCaptions("WEBVTT\n\n0.860 --> 7.380\nAll here.\n", "vtt", whole);
    expect(whole).toEqual({ cues: 0, words: 0 });
  });
});
