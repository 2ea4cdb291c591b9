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

  it("still drops a timing line that is no time at all", () => {
    const cues = parseCaptions("WEBVTT\n\nabc --> 1.5\nlost\n\n1.5 --> 2\nkept\n", "vtt");
    expect(cues.map((c) => c.text)).toEqual(["kept"]);
  });
});
