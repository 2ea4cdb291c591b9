import { describe, expect, it } from "vitest";
import { makeLongTranscript } from "@/test/formats/fixtures";
import { normalizeSegments, toMs } from "./normalize";
import { renderSrt } from "./srt";
import { parseSrtStrict, validateSrt } from "@/test/formats/srt-validator";
import { MESSY, SHORT } from "@/test/formats/helpers";

describe("validateSrt (strict test validator)", () => {
  const GOOD = "1\n00:00:00,000 --> 00:00:01,000\nHello\n\n2\n00:00:01,000 --> 00:00:02,500\nWorld\n";

  it("accepts a well-formed file and an empty one", () => {
    expect(validateSrt(GOOD)).toEqual([]);
    expect(validateSrt("")).toEqual([]);
  });

  it.each([
    ["numbering not from 1", GOOD.replace("1\n00:00:00", "0\n00:00:00"), /cue number/],
    ["numbering gap", GOOD.replace("2\n00:00:01", "3\n00:00:01"), /out of sequence/],
    [
      "dot instead of comma",
      GOOD.replace("00:00:01,000 --> 00:00:02,500", "00:00:01.000 --> 00:00:02.500"),
      /bad timing/,
    ],
    ["single-digit hours", GOOD.replace("00:00:00,000 -->", "0:00:00,000 -->"), /bad timing/],
    ["minutes > 59", GOOD.replace("00:00:01,000 --> 00:00:02,500", "00:60:01,000 --> 00:60:02,500"), /bad timing/],
    ["two-digit ms", GOOD.replace("00:00:02,500", "00:00:02,50"), /bad timing/],
    [
      "end before start",
      GOOD.replace("00:00:01,000 --> 00:00:02,500", "00:00:01,000 --> 00:00:00,900"),
      /ends before it starts/,
    ],
    ["overlap with next", GOOD.replace("00:00:00,000 --> 00:00:01,000", "00:00:00,000 --> 00:00:01,200"), /overlaps/],
    ["missing text", GOOD.replace("Hello\n", ""), /no text|bad timing|cue number/],
    ["whitespace-only text", GOOD.replace("Hello", "   "), /whitespace-only/],
    ["no blank line between cues", GOOD.replace("Hello\n\n2", "Hello\n2"), /contains "-->"|cue number|bad timing/],
    ["double blank line", GOOD.replace("Hello\n\n2", "Hello\n\n\n2"), /unexpected blank line/],
    ["CRLF", GOOD.replace(/\n/g, "\r\n"), /carriage return/],
    ["missing trailing newline", GOOD.slice(0, -1), /trailing newline/],
    ["trailing blank line", GOOD + "\n", /trailing blank|blank line/],
    ["arrow in text", GOOD.replace("World", "a --> b"), /contains "-->"/],
  ])("rejects %s", (_name, text, pattern) => {
    const errors = validateSrt(text);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join("\n")).toMatch(pattern);
  });
});

describe("renderSrt", () => {
  it("renders a short transcript exactly", () => {
    expect(renderSrt(SHORT)).toBe(
      [
        "1",
        "00:00:00,000 --> 00:00:02,500",
        "Hello world.",
        "",
        "2",
        "00:00:02,500 --> 00:00:05,000",
        "Second line with newline",
        "",
        "3",
        "00:00:05,100 --> 00:00:07,000",
        "Fish & chips <b>bold</b> -> arrow",
        "",
      ].join("\n"),
    );
    expect(validateSrt(renderSrt(SHORT))).toEqual([]);
  });

  it("renders an empty transcript (or one with only empty text) as an empty file", () => {
    expect(renderSrt([])).toBe("");
    expect(renderSrt([{ start: 0, end: 1, text: " \n " }])).toBe("");
  });

  it("drops empty-text segments and renumbers", () => {
    const out = renderSrt([
      { start: 0, end: 1, text: "a" },
      { start: 1, end: 2, text: "" },
      { start: 2, end: 3, text: "b" },
    ]);
    expect(validateSrt(out)).toEqual([]);
    expect(out).toBe("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\n00:00:02,000 --> 00:00:03,000\nb\n");
  });

  it("fixes overlapping, unsorted and zero-length input into a valid file", () => {
    const out = renderSrt(MESSY);
    expect(validateSrt(out)).toEqual([]);
    const { cues } = parseSrtStrict(out);
    expect(cues.map((c) => c.lines.join(" "))).toEqual(normalizeSegments(MESSY).map((s) => s.text));
    expect(cues[1]).toMatchObject({ startMs: 3000, endMs: 4000, lines: ["three overlaps four"] });
    expect(cues[2]).toMatchObject({ startMs: 4000, endMs: 4500, lines: ["four is zero-length"] });
  });

  it("neutralises arrows of any length in text", () => {
    const out = renderSrt([{ start: 0, end: 1, text: "a --> b ---> c -----> d -> e" }]);
    expect(validateSrt(out)).toEqual([]);
    expect(out).toContain("a -> b -> c -> d -> e");
  });

  it("uses at least two hour digits and more when needed", () => {
    const out = renderSrt([
      { start: 3661.5, end: 3662, text: "one hour" },
      { start: 360_000, end: 360_001.25, text: "a hundred hours" },
    ]);
    expect(out).toContain("01:01:01,500 --> 01:01:02,000");
    expect(out).toContain("100:00:00,000 --> 100:00:01,250");
    expect(validateSrt(out)).toEqual([]);
  });

  it("renders a 10-hour, 36,000-segment transcript that passes the strict validator", () => {
    const input = makeLongTranscript(36_000);
    const out = renderSrt(input);
    expect(validateSrt(out)).toEqual([]);
    const { cues } = parseSrtStrict(out);
    const expected = normalizeSegments(input);
    expect(cues).toHaveLength(36_000);
    for (let i = 0; i < cues.length; i += 997) {
      expect(cues[i].startMs).toBe(toMs(expected[i].start));
      expect(cues[i].endMs).toBe(toMs(expected[i].end));
      expect(cues[i].lines).toEqual([expected[i].text]);
    }
    expect(cues[cues.length - 1].startMs).toBeGreaterThan(10 * 3600 * 1000);
    expect(out).not.toContain("\r");
  });
});
