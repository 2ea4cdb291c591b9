import { describe, expect, it } from "vitest";
import { makeLongTranscript } from "@/test/formats/fixtures";
import { renderJson } from "./json";
import { normalizeSegments } from "./normalize";
import { MESSY, SHORT } from "@/test/formats/helpers";
import type { Segment } from "./types";

/** The reference: what renderJson promises to equal byte for byte. */
const reference = (segments: readonly Segment[]) => JSON.stringify({ segments: normalizeSegments(segments) });

describe("renderJson", () => {
  it("renders a short transcript exactly", () => {
    expect(renderJson(SHORT)).toBe(
      '{"segments":[{"start":0,"end":2.5,"text":"Hello world."},' +
        '{"start":2.5,"end":5,"text":"Second line with newline"},' +
        '{"start":5.1,"end":7,"text":"Fish & chips <b>bold</b> --> arrow"}]}',
    );
  });

  it("renders empty input as an empty list", () => {
    expect(renderJson([])).toBe('{"segments":[]}');
    expect(renderJson([{ start: 0, end: 1, text: "\n \t" }])).toBe('{"segments":[]}');
  });

  it("equals JSON.stringify of the normalized segments for messy text and times", () => {
    const tricky: Segment[] = [
      ...MESSY,
      { start: 40, end: 41, text: ' quote " backslash \\ slash / tab\there ' },
      { start: 42, end: 43, text: "controls \u0000\u0001\u001f\u007f end\r\n" },
      { start: 44, end: 45, text: "unicode spaces\u00a0\u2003\u2028\u2029\u3000\ufeffdone" },
      { start: 46, end: 47, text: "emoji 🎉 pair, lone high \ud83d and lone low \ude00 end\ud800" },
      { start: 48.0005, end: 49.9994, text: "ms rounding" },
      { start: 1234567.891, end: 1234568.1, text: "large times" },
      { start: 5e9, end: 5e9 + 0.25, text: "very large times" },
      { start: 50.01, end: 50.02, text: "centiseconds" },
      { start: 51.1, end: 51.2, text: "tenths" },
    ];
    expect(renderJson(tricky)).toBe(reference(tricky));
    const parsed = JSON.parse(renderJson(tricky)) as { segments: Segment[] };
    expect(parsed.segments.find((s) => s.text.startsWith("quote"))?.text).toBe('quote " backslash \\ slash / tab here');
    expect(parsed.segments.find((s) => s.text.startsWith("controls"))?.text).toBe("controls end");
    expect(parsed.segments.find((s) => s.text.startsWith("unicode"))?.text).toBe("unicode spaces done");
    expect(renderJson(tricky)).toContain("lone high \\ud83d and lone low \\ude00 end\\ud800");
  });

  it("equals the reference on random times and texts", () => {
    let seed = 7;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 0x1_0000_0000;
    };
    const alphabet = ["a", "b", " ", "  ", "\n", '"', "\\", "é", "ж", "😀", "\t", "&", "<", "\u00a0"];
    const input: Segment[] = [];
    for (let i = 0; i < 2000; i++) {
      let text = "";
      const len = Math.floor(rand() * 12);
      for (let j = 0; j < len; j++) text += alphabet[Math.floor(rand() * alphabet.length)];
      const start = rand() * 5000 - 10;
      input.push({ start, end: start + rand() * 20 - 2, text });
    }
    expect(renderJson(input)).toBe(reference(input));
  });

  it("renders a 10-hour, 36,000-segment transcript identically to the reference", () => {
    const input = makeLongTranscript(36_000);
    const out = renderJson(input);
    expect(out).toBe(reference(input));
    expect((JSON.parse(out) as { segments: unknown[] }).segments).toHaveLength(36_000);
  });

  describe("words", () => {
    it("writes a segment's words after its text, and no words key where there are none", () => {
      const input: Segment[] = [
        {
          start: 1,
          end: 3,
          text: "hey everyone",
          words: [
            { start: 1, end: 1.329, text: "hey" },
            { start: 1.329, end: 3, text: "everyone" },
          ],
        },
        { start: 3, end: 4, text: "[Music]" },
        { start: 4, end: 5, text: "empty list", words: [] },
      ];
      expect(renderJson(input)).toBe(
        '{"segments":[{"start":1,"end":3,"text":"hey everyone","words":[{"start":1,"end":1.329,"text":"hey"},' +
          '{"start":1.329,"end":3,"text":"everyone"}]},{"start":3,"end":4,"text":"[Music]"},' +
          '{"start":4,"end":5,"text":"empty list"}]}',
      );
      expect(renderJson(input)).toBe(reference(input));
    });

    it("keeps words inside their segment, in order, each ending by the next one's start", () => {
      const input: Segment[] = [
        {
          start: 10,
          end: 20,
          text: "a b c d",
          words: [
            { start: 9, end: 12, text: " a\n" },
            { start: 11.0004, end: Number.NaN, text: 'b"' },
            { start: 10.5, end: 30, text: "c" },
            { start: Number.NaN, end: 1, text: "lost" },
            { start: 15, end: 40, text: "  " },
            { start: 19, end: 25, text: "d" },
          ],
        },
        // Trims this segment's end to 18: the last word ends there too.
        { start: 18, end: 22, text: "next" },
      ];
      const out = JSON.parse(renderJson(input)) as { segments: Segment[] };
      expect(out.segments[0]?.end).toBe(18);
      expect(out.segments[0]?.words).toEqual([
        { start: 10, end: 11, text: "a" },
        { start: 11, end: 11, text: 'b"' },
        { start: 11, end: 18, text: "c" },
        { start: 18, end: 18, text: "d" },
      ]);
      expect(renderJson(input)).toBe(reference(input));
    });

    it("merges the words of segments that start together", () => {
      const input: Segment[] = [
        { start: 0, end: 1, text: "one", words: [{ start: 0, end: 1, text: "one" }] },
        { start: 0, end: 2, text: "two", words: [{ start: 0.5, end: 2, text: "two" }] },
      ];
      expect(normalizeSegments(input)).toEqual([
        {
          start: 0,
          end: 2,
          text: "one two",
          words: [
            { start: 0, end: 0.5, text: "one" },
            { start: 0.5, end: 2, text: "two" },
          ],
        },
      ]);
      expect(renderJson(input)).toBe(reference(input));
    });

    it("equals the reference on random words", () => {
      let seed = 11;
      const rand = () => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed / 0x1_0000_0000;
      };
      const input: Segment[] = [];
      for (let i = 0; i < 500; i++) {
        const start = rand() * 1000;
        const words = Array.from({ length: Math.floor(rand() * 6) }, (_, k) => ({
          start: start + rand() * 4 - 0.5,
          end: start + rand() * 6,
          text: ["w", " ", "é\n", '"q"', "😀"][k % 5] as string,
        }));
        input.push({ start, end: start + rand() * 5, text: `cue ${i}`, ...(rand() < 0.7 ? { words } : {}) });
      }
      expect(renderJson(input)).toBe(reference(input));
    });
  });
});
