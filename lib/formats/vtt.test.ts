import webvtt, { type WebVTTParseResult } from "webvtt-parser";
import htmlEntities from "webvtt-parser/html-entities.json";
import { describe, expect, it } from "vitest";
import { makeLongTranscript } from "@/test/formats/fixtures";
import { normalizeSegments, toMs } from "./normalize";
import { MESSY, SHORT } from "@/test/formats/helpers";
import { renderVtt } from "./vtt";

/**
 * W3C WebVTT parser (w3c/webvtt.js) in its strict mode: default (not "metadata") mode so cue-text
 * errors are reported, and callers tolerate no error at all. It gets the full HTML entity table:
 * its small default table decodes `&amp;` to `&;`.
 */
const parser = new webvtt.WebVTTParser(htmlEntities as Record<string, string>);
function parseStrict(text: string): WebVTTParseResult {
  return parser.parse(text);
}

type Node = { type: string; value?: string | number; children?: Node[] };
function cueText(nodes: Node[]): string {
  let s = "";
  for (const node of nodes) {
    if (node.type === "text") s += String(node.value);
    if (node.children) s += cueText(node.children);
  }
  return s;
}

/** Parses strictly, fails on any parser error, and checks ordering/non-overlap on top. */
function expectValidVtt(text: string): WebVTTParseResult {
  const result = parseStrict(text);
  expect(result.errors.map((e) => `line ${e.line}: ${e.message}`)).toEqual([]);
  const lines = text.split("\n");
  expect(lines[0]).toBe("WEBVTT");
  expect(text.endsWith("\n")).toBe(true);
  for (let i = 0; i + 1 < result.cues.length; i++) {
    const a = result.cues[i];
    const b = result.cues[i + 1];
    if (a.endTime > b.startTime) expect.fail(`cue ${i} overlaps cue ${i + 1}`);
  }
  return result;
}

describe("W3C parser sanity (the check can fail)", () => {
  it.each([
    ["missing signature", "00:00:00.000 --> 00:00:01.000\nHi\n", /signature/],
    ["unescaped ampersand", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nFish & chips\n", /escape/],
    ["unescaped tag", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<foo>x\n", /tag/],
    ["comma decimal separator", "WEBVTT\n\n00:00:00,000 --> 00:00:01,000\nHi\n", /decimal separator/],
    ["zero-length cue", "WEBVTT\n\n00:00:01.000 --> 00:00:01.000\nHi\n", /not greater than start/],
    [
      "arrow in text",
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHi\na --> b\n",
      /Blank line missing|timestamp|separator/i,
    ],
  ])("reports %s", (_name, text, pattern) => {
    const { errors } = parseStrict(text);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => e.message).join("\n")).toMatch(pattern);
  });
});

describe("renderVtt", () => {
  it("renders a short transcript exactly, and it parses strictly back to the same text", () => {
    const out = renderVtt(SHORT);
    expect(out).toBe(
      [
        "WEBVTT",
        "",
        "00:00:00.000 --> 00:00:02.500",
        "Hello world.",
        "",
        "00:00:02.500 --> 00:00:05.000",
        "Second line with newline",
        "",
        "00:00:05.100 --> 00:00:07.000",
        "Fish &amp; chips &lt;b&gt;bold&lt;/b&gt; --&gt; arrow",
        "",
      ].join("\n"),
    );
    const { cues } = expectValidVtt(out);
    expect(cues.map((c) => [c.startTime, c.endTime, cueText(c.tree.children as Node[])])).toEqual([
      [0, 2.5, "Hello world."],
      [2.5, 5, "Second line with newline"],
      [5.1, 7, "Fish & chips <b>bold</b> --> arrow"],
    ]);
  });

  it("renders an empty transcript as a bare, valid signature", () => {
    expect(renderVtt([])).toBe("WEBVTT\n");
    expect(renderVtt([{ start: 0, end: 0, text: "\n\n" }])).toBe("WEBVTT\n");
    expect(expectValidVtt("WEBVTT\n").cues).toHaveLength(0);
  });

  it("escapes &, < and > (so entities in the input stay literal)", () => {
    const out = renderVtt([{ start: 0, end: 1, text: "a & b < c > d &amp; <i>x</i>" }]);
    expect(out).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na &amp; b &lt; c &gt; d &amp;amp; &lt;i&gt;x&lt;/i&gt;\n",
    );
    expect(cueText(expectValidVtt(out).cues[0].tree.children as Node[])).toBe("a & b < c > d &amp; <i>x</i>");
  });

  it("never lets a cue contain a blank line or an arrow", () => {
    const out = renderVtt([{ start: 0, end: 1, text: "line one\n\nline two\r\n\r\n--> 00:00:05.000 --> x" }]);
    const { cues } = expectValidVtt(out);
    expect(cues).toHaveLength(1);
    expect(cueText(cues[0].tree.children as Node[])).toBe("line one line two --> 00:00:05.000 --> x");
    expect(out.split("\n").filter((l) => l.includes("-->"))).toHaveLength(1);
  });

  it("fixes overlapping, unsorted, zero-length and empty input into a strictly valid file", () => {
    const out = renderVtt(MESSY);
    const { cues } = expectValidVtt(out);
    const expected = normalizeSegments(MESSY);
    expect(cues.map((c) => [c.startTime, c.endTime, cueText(c.tree.children as Node[])])).toEqual(
      expected.map((s) => [s.start, s.end, s.text]),
    );
  });

  it("handles hours past 99", () => {
    const out = renderVtt([{ start: 360_000.001, end: 360_002, text: "late" }]);
    expect(out).toContain("100:00:00.001 --> 100:00:02.000");
    expect(expectValidVtt(out).cues[0].startTime).toBeCloseTo(360_000.001, 6);
  });

  it("renders a 10-hour, 36,000-segment transcript that the W3C parser accepts without errors", () => {
    const input = makeLongTranscript(36_000);
    const out = renderVtt(input);
    const { cues } = expectValidVtt(out);
    const expected = normalizeSegments(input);
    expect(cues).toHaveLength(36_000);
    for (let i = 0; i < cues.length; i += 997) {
      expect(Math.round(cues[i].startTime * 1000)).toBe(toMs(expected[i].start));
      expect(Math.round(cues[i].endTime * 1000)).toBe(toMs(expected[i].end));
      expect(cueText(cues[i].tree.children as Node[])).toBe(expected[i].text);
    }
  });
});
