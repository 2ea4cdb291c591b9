/**
 * The parser on real caption files from public repositories (test/fixtures/captions/README.md says
 * where each comes from), plus defects once found on such files, as regression tests.
 */
import webvtt from "webvtt-parser";
import htmlEntities from "webvtt-parser/html-entities.json";
import { describe, expect, it } from "vitest";

import { normalizeSegments } from "@/lib/formats/normalize";
import { renderSrt } from "@/lib/formats/srt";
import { parseSrtStrict } from "@/test/formats/srt-validator";
import type { Segment } from "@/lib/formats/types";
import { renderVtt } from "@/lib/formats/vtt";
import {
  REAL_CAPTION_FILES,
  newRows,
  readCaptionFile,
  referenceTimedWords,
  referenceWords,
  words,
} from "@/test/fixtures/captions";

import {
  captionSegments,
  cleanText,
  dedupe,
  isRollingTrack,
  longestOverlap,
  parseCaptions,
  parseJson3,
  parseSrt,
  parseSrv3,
  parseVtt,
  repeatedNgramCount,
  sniffFormat,
} from "./index";

const strictVtt = new webvtt.WebVTTParser(htmlEntities as Record<string, string>);

const textWords = (segments: readonly Segment[]) => words(segments.map((s) => s.text).join(" "));

/**
 * Rolling repeats: adjacent segments where the later one starts with the earlier one's tail (two
 * words or more, or all of either), which is how a re-shown row looks.
 */
function rollingRepeats(segments: readonly Segment[]): number {
  let n = 0;
  for (let i = 1; i < segments.length; i++) {
    const prev = words((segments[i - 1] as Segment).text.toLowerCase());
    const cur = words((segments[i] as Segment).text.toLowerCase());
    const k = longestOverlap(prev, cur);
    if (k >= 2 || (k >= 1 && (k === prev.length || k === cur.length))) n++;
  }
  return n;
}

/** How many reference words are missing from `got` when matched in order (0: nothing lost). */
function wordsLost(reference: readonly string[], got: readonly string[]): number {
  let j = 0;
  let lost = 0;
  for (const w of reference) {
    let k = j;
    while (k < got.length && got[k] !== w) k++;
    if (k === got.length) lost++;
    else j = k + 1;
  }
  return lost;
}

describe.each(REAL_CAPTION_FILES)("real file $file", (f) => {
  const body = readCaptionFile(f.file);
  const segments = captionSegments(parseCaptions(body, f.format), f.kind);
  const reference = referenceWords(f, body);

  it("is sniffed as what it is", () => {
    expect(sniffFormat(body)).toBe(f.format);
  });

  it("loses no word and adds none: the output says the file's words once, in order", () => {
    expect(reference.length).toBeGreaterThan(0);
    const got = textWords(segments);
    expect(wordsLost(reference, got)).toBe(0);
    expect(got).toEqual(reference);
  });

  it("keeps no timing line, cue setting or tag in the text, and no segment of 10 ms", () => {
    for (const s of segments) {
      expect(s.text).not.toMatch(/-->|align:start|position:\d|<\/?c\b|<\d\d:/);
      expect(s.text).not.toBe("");
    }
    if (f.kind === "auto") expect(segments.filter((s) => s.end - s.start <= 0.011 && s.end > s.start)).toEqual([]);
  });

  it("keeps every word the file times, once, with its own time: words with times in = out", () => {
    const timedIn = referenceTimedWords(f, body);
    const timedOut = segments.flatMap((s) => s.words ?? []);
    if (f.kind === "auto") expect(timedIn.length).toBeGreaterThan(0);
    expect(timedOut.map((w) => ({ text: w.text, start: w.start }))).toEqual(timedIn);
  });

  it("keeps each segment's words inside it, in the order of its text, each ending by the next one's start", () => {
    const all = segments.flatMap((s) => s.words ?? []);
    for (const [i, w] of all.entries()) {
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(all[i + 1]?.start ?? Infinity);
    }
    for (const s of segments) {
      let at = 0;
      for (const w of s.words ?? []) {
        expect(w.start).toBeGreaterThanOrEqual(s.start);
        expect(w.end).toBeLessThanOrEqual(s.end);
        const found = s.text.indexOf(w.text, at);
        expect(found, `${w.text} in "${s.text}"`).toBeGreaterThanOrEqual(0);
        at = found + w.text.length;
      }
    }
  });

  it("renders to WebVTT and SRT that strict parsers accept", () => {
    const normalized = normalizeSegments(segments);
    const vtt = renderVtt(normalized);
    const parsed = strictVtt.parse(vtt);
    expect(parsed.errors.map((e) => `line ${e.line}: ${e.message}`)).toEqual([]);
    expect(parsed.cues.length).toBe(normalized.length);
    expect(parseSrtStrict(renderSrt(normalized)).errors).toEqual([]);
  });
});

describe("rolling auto captions on the real files", () => {
  it.each(REAL_CAPTION_FILES.filter((f) => f.rolling))("$file: rolls before, 0 rolling repeats after", (f) => {
    const body = readCaptionFile(f.file);
    const cues = parseCaptions(body, f.format).filter((c) => c.text !== "");
    expect(isRollingTrack(cues)).toBe(true);
    expect(rollingRepeats(cues)).toBeGreaterThanOrEqual(cues.length / 2);
    const out = dedupe(cues);
    // One segment per row the track adds; the only overlaps left are the speaker's own, which the
    // added rows themselves contain, each word with its own new timestamp ("out of my own personal
    // / my own personal bank account" in t2o2's file).
    const rows = newRows(body).map((text) => ({ start: 0, end: 0, text }));
    expect(out.map((s) => s.text)).toEqual(rows.map((r) => r.text));
    expect(rollingRepeats(out)).toBe(rollingRepeats(rows));
    expect(rollingRepeats(out)).toBeLessThanOrEqual(2);
    expect(textWords(out).length).toBeLessThan(words(cues.map((c) => c.text).join(" ")).length / 1.5);
    // What 4-grams still repeat across adjacent segments are the speaker's own ("will burn you in").
    expect(repeatedNgramCount(out, 4)).toBeLessThan(repeatedNgramCount(cues, 4) / 50);
  });

  it("json3 (events carry only their new words) is not taken for a rolling track", () => {
    const cues = parseJson3(readCaptionFile("ytenglishhub.auto.en.json3"));
    expect(isRollingTrack(cues.filter((c) => c.text !== ""))).toBe(false);
  });
});

describe("regressions from real files: where a cue ends, invisible characters", () => {
  it("a VTT cue's text ends at a line with -->, even with no blank line before it", () => {
    // webvtt-py's youtube_dl.vtt: `<c.colorCCCCCC>what</c>` is followed straight by the next timing line.
    const body = readCaptionFile("webvtt-py.youtube_dl.en.vtt");
    expect(body).toContain("<c.colorCCCCCC>what</c>\n00:05:04.080 --> 00:05:05.069 align:start position:0%\n");
    expect(parseVtt(body).map(({ words: _words, ...cue }) => cue)).toEqual([
      { start: 286.07, end: 286.47, text: "yeah" },
      { start: 286.47, end: 304.08, text: "yeah what" },
      { start: 304.08, end: 305.069, text: "this will happen is I'm telling" },
      { start: 305.069, end: 305.4, text: "this will happen is I'm telling" },
    ]);
    // The rolling repeats are caught, and the phrase keeps its real duration (not 10 ms).
    // Each word keeps the time of its own <00:05:04.199> tag, the hold cue adds none.
    expect(dedupe(parseVtt(body))).toEqual([
      { start: 286.07, end: 286.47, text: "yeah", words: [{ start: 286.07, end: 286.47, text: "yeah" }] },
      { start: 286.47, end: 304.08, text: "what", words: [{ start: 286.47, end: 304.08, text: "what" }] },
      {
        start: 304.08,
        end: 305.4,
        text: "this will happen is I'm telling",
        words: [
          { start: 304.08, end: 304.199, text: "this" },
          { start: 304.199, end: 304.379, text: "will" },
          { start: 304.379, end: 304.62, text: "happen" },
          { start: 304.62, end: 304.86, text: "is" },
          { start: 304.86, end: 305.069, text: "I'm" },
          { start: 305.069, end: 305.069, text: "telling" },
        ],
      },
    ]);
  });

  it("the same rule in SRT: a sequence number just before the next timing line is not text", () => {
    expect(parseSrt("1\n00:00:01,000 --> 00:00:02,000\nOne\n2\n00:00:02,000 --> 00:00:03,000\nTwo\n")).toEqual([
      { start: 1, end: 2, text: "One" },
      { start: 2, end: 3, text: "Two" },
    ]);
  });

  it("zero-width spaces are removed, not turned into spaces that split CJK words", () => {
    const zw = "从合欢\u200b\u200b山到";
    expect(cleanText(zw)).toBe("从合欢山到");
    expect(parseVtt(`WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${zw}\n`)[0]?.text).toBe("从合欢山到");
    expect(
      parseJson3(
        JSON.stringify({
          events: [
            { tStartMs: 0, dDurationMs: 900, segs: [{ utf8: "从合欢" }, { utf8: "\u200b\u200b" }, { utf8: "山到" }] },
          ],
        }),
      )[0]?.text,
    ).toBe("从合欢山到");
    expect(
      parseSrv3(`<timedtext format="3"><body><p t="0" d="900">从合欢&#8203;&#x200B;山到</p></body></timedtext>`)[0]
        ?.text,
    ).toBe("从合欢山到");
    expect(parseSrt(`1\n00:00:01,000 --> 00:00:02,000\n${zw}\n`)[0]?.text).toBe("从合欢山到");
  });
});

describe("regressions from real files: joining lines, keeping gaps", () => {
  const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff01-\\uff60";
  /** Spaces with a Chinese or Japanese character on both sides: none belongs in zh/ja text. */
  const straySpaces = (text: string) => [...text.matchAll(new RegExp(`(?<=[${CJK}]) (?=[${CJK}])`, "gu"))].length;
  const nonSpace = (text: string) => text.replace(/\s+/g, "");

  it("a Chinese track's wrapped lines are joined without a space, and every character is kept", () => {
    const body = readCaptionFile("mempool.promo.zh.vtt");
    // The file wraps lines 18 times between two Chinese characters; each used to become a space.
    const wraps = [...body.matchAll(new RegExp(`(?<=[${CJK}])\\n(?=[${CJK}])`, "gu"))].length;
    expect(wraps).toBe(18);
    const segments = captionSegments(parseCaptions(body, "vtt"), "manual");
    const text = segments.map((s) => s.text).join("");
    expect(straySpaces(text)).toBe(0);
    expect(segments.map((s) => s.text)).toContain("我们有实时追踪系统，你可以看到交易被确认的瞬间！");
    // A wrap next to a Latin word stays a space ("mempool" then "我们").
    expect(segments[0]?.text).toBe("欢迎来到开源项目 mempool 我们可以提供各式数据");
    const cueText = body
      .split("\n")
      .filter((l) => l !== "" && !l.includes("-->") && !/^(WEBVTT|Kind:|Language:)/.test(l));
    expect(nonSpace(text)).toBe(nonSpace(cueText.join("")));
  });

  it("Japanese auto captions appended in json3 are joined without a space; Latin ones with one", () => {
    const json3 = JSON.stringify({
      events: [
        { tStartMs: 0, dDurationMs: 2000, segs: [{ utf8: "今日は" }] },
        { tStartMs: 1000, dDurationMs: 1000, aAppend: 1, segs: [{ utf8: "\n" }] },
        { tStartMs: 1000, dDurationMs: 1000, aAppend: 1, segs: [{ utf8: "いい天気です" }] },
        { tStartMs: 2000, dDurationMs: 1000, segs: [{ utf8: "hello" }] },
        { tStartMs: 2500, dDurationMs: 500, aAppend: 1, segs: [{ utf8: "world" }] },
      ],
    });
    expect(dedupe(parseJson3(json3)).map((s) => s.text)).toEqual(["今日はいい天気です", "hello world"]);
    expect(cleanText("中文<br/>字幕")).toBe("中文字幕");
    expect(cleanText("한국어\n자막")).toBe("한국어 자막");
  });

  it("cues with a gap between them are never merged, even in a rolling track: three [Music] cues 100 s apart stay three", () => {
    // The real rolling file, with three music breaks in YouTube's layout appended after its last cue.
    const real = readCaptionFile("webvtt-py.youtube_dl.en.vtt");
    const music = (at: number) => {
      const t = (s: number) =>
        `00:${String(Math.floor(s / 60)).padStart(2, "0")}:${(s % 60).toFixed(3).padStart(6, "0")}`;
      return `\n${t(at)} --> ${t(at + 1.5)} align:start position:0%\n[Music]\n`;
    };
    const body = `${real.trimEnd()}\n${music(400)}${music(500)}${music(600)}`;
    const reference = [
      ...referenceWords({ file: "", format: "vtt", kind: "auto", rolling: true }, real),
      "[Music]",
      "[Music]",
      "[Music]",
    ];
    const out = dedupe(parseVtt(body));
    const musicSegments = out.filter((s) => s.text === "[Music]");
    const musicAt = (start: number) => ({ start, end: start + 1.5, text: "[Music]" });
    expect(musicSegments).toEqual([400, 500, 600].map((t) => ({ ...musicAt(t), words: [musicAt(t)] })));
    expect(textWords(out)).toEqual(reference);
    expect(Math.max(...out.map((s) => s.end - s.start))).toBeLessThan(20);
  });
});
