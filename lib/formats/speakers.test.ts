import { describe, expect, it } from "vitest";
import { SAMPLE_META } from "@/test/formats/fixtures";

import { renderJson } from "./json";
import { renderMarkdown } from "./markdown";
import { normalizeSegments } from "./normalize";
import { readingParagraphs } from "./paragraphs";
import { MAX_SPEAKER_CHARS, speakerBoundsProblem, speakersOf } from "./speakers";
import { renderSrt } from "./srt";
import { renderText, renderTimestampedText } from "./text";
import type { Segment } from "./types";
import { renderVtt } from "./vtt";

// An interview: two people, each speaking for two segments, then one segment nobody is named for.
const INTERVIEW: Segment[] = [
  { start: 0, end: 2, text: "Welcome to the show.", speaker: "Sarah" },
  { start: 2, end: 4, text: "Today a guest.", speaker: "Sarah" },
  { start: 4, end: 6, text: "Thanks <for> having me.", speaker: "Dr. Ada *Love*" },
  { start: 6, end: 8, text: "It is a pleasure.", speaker: "Dr. Ada *Love*" },
  { start: 8, end: 9, text: "[music]" },
];
const UNNAMED = INTERVIEW.map(({ speaker: _s, ...rest }) => rest);

describe("renderers with speakers", () => {
  it("JSON: a speaker key after the text, as JSON.stringify of the stored segments gives", () => {
    const json = renderJson(INTERVIEW);
    expect(json).toBe(JSON.stringify({ segments: normalizeSegments(INTERVIEW) }));
    expect(json).toContain('{"start":0,"end":2,"text":"Welcome to the show.","speaker":"Sarah"}');
    expect(json).toContain('{"start":8,"end":9,"text":"[music]"}');
    const withWords = renderJson([
      { start: 0, end: 1, text: "Hi", speaker: "A", words: [{ start: 0, end: 1, text: "Hi" }] },
    ]);
    expect(withWords).toBe(
      '{"segments":[{"start":0,"end":1,"text":"Hi","speaker":"A","words":[{"start":0,"end":1,"text":"Hi"}]}]}',
    );
  });

  it("WebVTT: every cue with a speaker opens with its voice, the name escaped", () => {
    expect(renderVtt(INTERVIEW)).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Sarah>Welcome to the show.\n\n" +
        "00:00:02.000 --> 00:00:04.000\n<v Sarah>Today a guest.\n\n" +
        "00:00:04.000 --> 00:00:06.000\n<v Dr. Ada *Love*>Thanks &lt;for&gt; having me.\n\n" +
        "00:00:06.000 --> 00:00:08.000\n<v Dr. Ada *Love*>It is a pleasure.\n\n" +
        "00:00:08.000 --> 00:00:09.000\n[music]\n",
    );
    expect(renderVtt([{ start: 0, end: 1, text: "x", speaker: "<A&B>" }])).toContain("<v &lt;A&amp;B&gt;>x");
  });

  it("SRT: `Name: ` where the speaker changes only", () => {
    expect(renderSrt(INTERVIEW)).toBe(
      "1\n00:00:00,000 --> 00:00:02,000\nSarah: Welcome to the show.\n\n" +
        "2\n00:00:02,000 --> 00:00:04,000\nToday a guest.\n\n" +
        "3\n00:00:04,000 --> 00:00:06,000\nDr. Ada *Love*: Thanks <for> having me.\n\n" +
        "4\n00:00:06,000 --> 00:00:08,000\nIt is a pleasure.\n\n" +
        "5\n00:00:08,000 --> 00:00:09,000\n[music]\n",
    );
  });

  it("text: a paragraph per change of speaker, opened by `Name: `", () => {
    expect(renderText(INTERVIEW)).toBe(
      "Sarah: Welcome to the show. Today a guest.\n\nDr. Ada *Love*: Thanks <for> having me. It is a pleasure.\n\n[music]\n",
    );
    expect(renderTimestampedText(INTERVIEW)).toBe(
      "[00:00] Sarah: Welcome to the show. Today a guest.\n\n[00:04] Dr. Ada *Love*: Thanks <for> having me. It is a pleasure.\n\n[00:08] [music]\n",
    );
  });

  it("Markdown: the name in bold after the paragraph's timestamp, escaped", () => {
    const md = renderMarkdown(INTERVIEW, SAMPLE_META);
    expect(md).toContain(") **Sarah:** Welcome to the show. Today a guest.\n\n");
    expect(md).toContain(") **Dr. Ada \\*Love\\*:** Thanks \\<for\\> having me. It is a pleasure.\n\n");
    expect(md.endsWith("s) \\[music\\]\n")).toBe(true);
  });

  it("renders a transcript that names no one as before: no label, no paragraph break from speakers", () => {
    for (const render of [renderText, renderSrt, renderVtt, renderJson])
      expect(render(UNNAMED)).not.toMatch(/Sarah|Ada|<v /);
    expect(renderText(UNNAMED)).toBe(
      "Welcome to the show. Today a guest. Thanks <for> having me. It is a pleasure. [music]\n",
    );
    // A blank speaker is no speaker.
    expect(renderSrt(UNNAMED.map((s) => ({ ...s, speaker: "  " })))).toBe(renderSrt(UNNAMED));
  });
});

describe("the reading view's paragraphs", () => {
  it("start where the speaker changes, with the name only there", () => {
    const paragraphs = readingParagraphs(normalizeSegments(INTERVIEW));
    expect(paragraphs).toEqual([
      { from: 0, to: 2, start: 0, speaker: "Sarah" },
      { from: 2, to: 4, start: 4, speaker: "Dr. Ada *Love*" },
      { from: 4, to: 5, start: 8 },
    ]);
    // A pause inside one speaker's turn starts a paragraph without repeating the name.
    const paused = readingParagraphs([
      { start: 0, end: 1, text: "One.", speaker: "Sarah" },
      { start: 5, end: 6, text: "Two.", speaker: "Sarah" },
    ]);
    expect(paused.map((p) => p.speaker)).toEqual(["Sarah", undefined]);
    expect(readingParagraphs(UNNAMED).every((p) => p.speaker === undefined)).toBe(true);
  });
});

describe("speaker bounds", () => {
  it("names the problem: a long name, too many speakers", () => {
    expect(speakerBoundsProblem(INTERVIEW)).toBeNull();
    expect(speakerBoundsProblem([{ speaker: "x".repeat(MAX_SPEAKER_CHARS + 1) }])).toContain("101 characters");
    expect(speakersOf(INTERVIEW)).toEqual(["Sarah", "Dr. Ada *Love*"]);
  });
});
