import { describe, expect, it } from "vitest";
import { makeLongTranscript } from "@/test/formats/fixtures";
import { normalizeSegments } from "./normalize";
import { MESSY, SHORT } from "@/test/formats/helpers";
import { renderText, renderTimestampedText } from "./text";
import type { Segment } from "./types";

/** Consecutive 1-second segments "w0", "w1", ... with optional sentence ends and pauses. */
function seconds(n: number, opts: { sentenceEndAt?: number[]; pauseAfter?: number[] } = {}): Segment[] {
  const out: Segment[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    out.push({ start: t, end: t + 1, text: `w${i}` + (opts.sentenceEndAt?.includes(i) ? "." : "") });
    t += 1 + (opts.pauseAfter?.includes(i) ? 2.5 : 0);
  }
  return out;
}

const paragraphs = (text: string) => text.trimEnd().split("\n\n");

describe("renderText", () => {
  it("joins a short transcript into one clean paragraph with a trailing newline", () => {
    expect(renderText(SHORT)).toBe("Hello world. Second line with newline Fish & chips <b>bold</b> --> arrow\n");
  });

  it("renders empty input as an empty string", () => {
    expect(renderText([])).toBe("");
    expect(renderText([{ start: 0, end: 1, text: "   " }])).toBe("");
  });

  it("orders messy input by time, drops empty text and keeps every word", () => {
    // 1 s → 3 s is a 2 s pause (no break); 4.5 s → 10 s, 12 s → 15 s and 16 s → 20 s are longer.
    expect(renderText(MESSY)).toBe(
      "negative start three overlaps four four is zero-length\n\nten\n\ninverted same start as inverted\n\nlast zero-length\n",
    );
    expect(renderText(MESSY).replace(/\n+/g, " ").trim()).toBe(
      normalizeSegments(MESSY)
        .map((s) => s.text)
        .join(" "),
    );
  });

  it("breaks paragraphs on pauses longer than 2 s", () => {
    const out = renderText(seconds(6, { pauseAfter: [2] }));
    expect(out).toBe("w0 w1 w2\n\nw3 w4 w5\n");
  });

  it("does not break on a 2 s pause or less", () => {
    const input: Segment[] = [
      { start: 0, end: 1, text: "a." },
      { start: 3, end: 4, text: "b" },
    ];
    expect(renderText(input)).toBe("a. b\n");
  });

  it("breaks at a sentence end only once ~45 s have passed", () => {
    const out = renderText(seconds(100, { sentenceEndAt: [10, 50, 60] }));
    const paras = paragraphs(out);
    expect(paras).toHaveLength(2);
    expect(paras[0].startsWith("w0 ")).toBe(true);
    expect(paras[0]).toContain("w10.");
    expect(paras[0].endsWith("w50.")).toBe(true);
    expect(paras[1].startsWith("w51 ")).toBe(true);
    expect(paras[1].endsWith("w99")).toBe(true);
  });

  it("recognises sentence ends followed by closing quotes", () => {
    const input = seconds(60);
    input[49] = { ...input[49], text: 'he said "stop!"' };
    expect(paragraphs(renderText(input))[0].endsWith('he said "stop!"')).toBe(true);
    expect(paragraphs(renderText(input))).toHaveLength(2);
  });

  it("still breaks unpunctuated captions every ~2 minutes", () => {
    const paras = paragraphs(renderText(seconds(300)));
    expect(paras.length).toBe(3);
    expect(paras[0].split(" ")).toHaveLength(120);
  });

  it("renders a 10-hour, 36,000-segment transcript with no timestamps and no lost words", () => {
    const input = makeLongTranscript(36_000);
    const out = renderText(input);
    expect(out.endsWith("\n")).toBe(true);
    expect(out.endsWith("\n\n")).toBe(false);
    expect(out).not.toMatch(/\d{1,2}:\d{2}/);
    expect(out).not.toMatch(/\d{2}:\d{2}:\d{2}[,.]\d{3}|\[\d+:\d{2}/);
    const paras = paragraphs(out);
    expect(paras.length).toBeGreaterThan(300);
    for (const p of paras) {
      expect(p).not.toBe("");
      expect(p).not.toContain("\n");
      expect(p).not.toMatch(/\s\s/);
    }
    const words = out.split(/\s+/).filter(Boolean);
    expect(words.length).toBe(normalizeSegments(input).reduce((n, s) => n + s.text.split(" ").length, 0));
  });
});

describe("renderTimestampedText", () => {
  it("opens each paragraph of the plain text with its start time", () => {
    const segments = seconds(100, { pauseAfter: [49] });
    const plain = paragraphs(renderText(segments));
    const stamped = paragraphs(renderTimestampedText(segments));
    expect(stamped).toHaveLength(plain.length);
    expect(stamped[0]).toBe(`[00:00] ${plain[0]}`);
    expect(stamped[1]).toBe(`[00:52] ${plain[1]}`);
    expect(renderTimestampedText(segments).endsWith("\n")).toBe(true);
  });

  it("writes hours past the first hour, and nothing for an empty transcript", () => {
    expect(renderTimestampedText([{ start: 3725.4, end: 3727, text: "Late." }])).toBe("[1:02:05] Late.\n");
    expect(renderTimestampedText([])).toBe("");
  });
});
