import { describe, expect, it } from "vitest";
import { clock, pendingJobText } from "@/lib/mcp/render";
import { transcriptPage } from "@/lib/mcp/transcript-page";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";

const transcript: TranscriptResponse = {
  id: "t1",
  platform: "youtube",
  video_id: "Hq7sWc2dT4E",
  source_url: "https://www.youtube.com/watch?v=Hq7sWc2dT4E",
  title: "Why ice floats",
  lang: "en",
  source: "captions",
  caption_kind: "manual",
  duration_seconds: 3725,
  channel: "Kitchen Physics",
  source_published_at: null,
  chapters: [
    { start: 0, title: "Intro" },
    { start: 83.5, title: "Density" },
  ],
  served_by: "innertube:VISIONOS",
  format: "json",
  content: null,
  segments: [
    { start: 0, end: 2.5, text: "[MUSIC]" },
    { start: 83.9, end: 86, text: "Water is densest at four degrees." },
    { start: 3724.2, end: 3725, text: "Bye." },
  ],
};

describe("what a model reads", () => {
  it("clock: hh:mm:ss, always with hours", () => {
    expect(clock(0)).toBe("00:00:00");
    expect(clock(83.9)).toBe("00:01:23");
    expect(clock(3724.2)).toBe("01:02:04");
    expect(clock(-1)).toBe("00:00:00");
  });

  it("a header, then one [hh:mm:ss] line per segment, for json and text alike; the transcript's length is stated", () => {
    const expected = [
      "# Why ice floats",
      "Source: https://www.youtube.com/watch?v=Hq7sWc2dT4E",
      "Language: en (manual captions)",
      "Duration: 01:02:05",
      "Channel: Kitchen Physics",
      "Chapters: [00:00:00] Intro; [00:01:23] Density",
      "The whole transcript: 3 segments, 80 characters.",
      "",
      "[00:00:00] [MUSIC]",
      "[00:01:23] Water is densest at four degrees.",
      "[01:02:04] Bye.",
    ].join("\n");
    expect(transcriptPage(transcript, "json", {}, "get_transcript").text).toBe(expected);
    expect(transcriptPage(transcript, "text", {}, "get_transcript").text).toBe(expected);
    const { info, page } = transcriptPage(transcript, "json", {}, "get_transcript");
    expect(info).not.toHaveProperty("segments");
    expect(info).not.toHaveProperty("content");
    expect(page).toEqual({
      format: "json",
      from_segment: 0,
      to_segment: 3,
      total_segments: 3,
      from_seconds: 0,
      to_seconds: 3725,
      characters: 80,
      total_characters: 80,
      next_from_segment: null,
      next_from_character: null,
    });
  });

  it("pages by segment and by time within the character budget, saying how to continue", () => {
    const long = {
      ...transcript,
      segments: Array.from({ length: 1000 }, (_, i) => ({
        start: i * 4,
        end: i * 4 + 4,
        text: `Sentence number ${i} of the lecture.`,
      })),
    };
    const first = transcriptPage(long, "text", { max_characters: 2000 }, "get_transcript");
    expect(first.page.from_segment).toBe(0);
    expect(first.page.characters).toBeLessThanOrEqual(2000);
    expect(first.page.next_from_segment).toBe(first.page.to_segment);
    expect(first.text).toContain(
      `More: call get_transcript again with the same arguments and from_segment=${first.page.to_segment}`,
    );
    expect(first.text).toMatch(
      /Segments 0–\d+ of 1000 \(00:00:00–00:\d\d:\d\d of 01:02:05; [\d,]+ of [\d,]+ characters\)\./,
    );
    const next = transcriptPage(
      long,
      "text",
      { from_segment: first.page.to_segment!, max_characters: 2000 },
      "get_transcript",
    );
    expect(next.text.split("\n\n")[1]!.split("\n")[0]).toBe(
      `[${clock(first.page.to_segment! * 4)}] Sentence number ${first.page.to_segment} of the lecture.`,
    );
    const range = transcriptPage(long, "text", { from_seconds: 601, to_seconds: 620 }, "get_transcript");
    expect(range.page).toMatchObject({
      from_segment: 150,
      to_segment: 155,
      from_seconds: 600,
      to_seconds: 620,
      next_from_segment: null,
    });
  });

  it("a segment longer than the whole budget is cut: each page keeps max_characters, and the pages hold all of it", () => {
    const giantText = Array.from({ length: 25_000 }, (_, i) => `w${i % 10}rd ${i % 7}`)
      .join(" ")
      .slice(0, 150_025);
    expect(giantText).toHaveLength(150_025);
    const giant = {
      ...transcript,
      segments: [
        { start: 0, end: 2.5, text: "Before." },
        { start: 2.5, end: 3600, text: giantText },
        { start: 3600, end: 3601, text: "After." },
      ],
    };
    for (const format of ["text", "srt", "vtt", "md"] as const) {
      let request: { from_segment?: number; from_character?: number } = {};
      let text = "";
      let after = false;
      for (let pages = 0; pages < 200; pages++) {
        const part = transcriptPage(giant, format, { ...request, max_characters: 2000 }, "get_transcript");
        expect(part.page.characters, format).toBeLessThanOrEqual(2000);
        // The page's text: the transcript's part plus a header and a line of how to continue.
        expect(part.text.length, format).toBeLessThanOrEqual(2000 + 600);
        text += part.text;
        after ||= part.text.includes("After.");
        if (part.page.next_from_segment === null) break;
        request = {
          from_segment: part.page.next_from_segment,
          ...(part.page.next_from_character !== null ? { from_character: part.page.next_from_character } : {}),
        };
        if (part.page.next_from_character !== null)
          expect(part.text).toContain(`from_character=${part.page.next_from_character}`);
      }
      expect(after, format).toBe(true);
      // Every piece of the giant segment came, in order, once.
      const words = giantText.split(" ");
      expect(text.includes(words.at(-1)!), format).toBe(true);
    }
    const first = transcriptPage(giant, "text", { max_characters: 2000 }, "get_transcript");
    expect(first.page).toMatchObject({
      from_segment: 0,
      to_segment: 1,
      next_from_segment: 1,
      next_from_character: null,
    });
    const second = transcriptPage(giant, "text", { from_segment: 1, max_characters: 2000 }, "get_transcript");
    expect(second.page).toMatchObject({ from_segment: 1, to_segment: 1, next_from_segment: 1 });
    const cutAt = second.page.next_from_character!;
    expect(second.text).toContain(giantText.slice(cutAt - 50, cutAt));
    const third = transcriptPage(
      giant,
      "text",
      { from_segment: 1, from_character: cutAt, max_characters: 2000 },
      "get_transcript",
    );
    expect(third.text).toContain(`[00:00:02] ${giantText.slice(cutAt, cutAt + 50)}`);
  });

  it("file formats render the page's segments as they are; Markdown brings its own header (not a second one)", () => {
    const srt = transcriptPage(
      { ...transcript, title: null, channel: null, chapters: [] },
      "srt",
      {},
      "get_transcript",
    ).text;
    expect(srt).toMatch(/^# Hq7sWc2dT4E\n/);
    expect(srt).toContain("\n\n1\n00:00:00,000 --> 00:00:02,500\n[MUSIC]\n");
    const md = transcriptPage(transcript, "md", {}, "get_transcript").text;
    expect(md.match(/Why ice floats/g)).toHaveLength(1);
  });

  it("a pending job says how to continue", () => {
    expect(pendingJobText({ job_id: "j1", status: "running", stage: "recognize", progress: 0.426 })).toBe(
      'The transcript is being made by speech recognition (job j1: running, recognize, 43%).\nCall get_job with job_id "j1" in a minute or two to get it; longer recordings take longer.',
    );
  });

  describe("words: true", () => {
    const timed = {
      ...transcript,
      caption_kind: "auto" as const,
      segments: Array.from({ length: 200 }, (_, i) => ({
        start: i * 2,
        end: i * 2 + 2,
        text: "one two three",
        words: ["one", "two", "three"].map((text, k) => ({ start: i * 2 + k / 2, end: i * 2 + (k + 1) / 2, text })),
      })),
    };

    it("gives the part's segments with their words in the structured answer, only when asked", () => {
      expect(transcriptPage(timed, "json", {}, "get_transcript").page).not.toHaveProperty("segments");
      const { page, text } = transcriptPage(timed, "json", { words: true }, "get_transcript");
      expect(page.segments).toEqual(timed.segments);
      // The text a model reads stays the [hh:mm:ss] lines.
      expect(text).toContain("[00:00:02] one two three\n");
      expect(text).not.toContain('"start"');
    });

    it("counts the words toward max_characters: a part holds fewer segments, and the pages hold them all", () => {
      const plain = transcriptPage(timed, "json", { max_characters: 2000 }, "get_transcript").page;
      const first = transcriptPage(timed, "json", { max_characters: 2000, words: true }, "get_transcript").page;
      expect(first.characters).toBeLessThanOrEqual(2000);
      expect(first.to_segment).toBeLessThan(plain.to_segment / 3);
      expect(JSON.stringify(first.segments).length).toBeLessThanOrEqual(2000);
      const seen = [...first.segments!];
      let next = first.next_from_segment;
      while (next !== null) {
        const part = transcriptPage(timed, "json", { max_characters: 2000, words: true, from_segment: next }, "x").page;
        expect(part.characters).toBeLessThanOrEqual(2000);
        seen.push(...part.segments!);
        next = part.next_from_segment;
      }
      expect(seen).toEqual(timed.segments);
    });

    it("a segment longer than the budget is cut to fit twice (its line and its JSON), without words", () => {
      const giant = {
        ...timed,
        segments: [{ start: 0, end: 9, text: "x".repeat(5000), words: timed.segments[0]!.words }],
      };
      const { page } = transcriptPage(giant, "json", { max_characters: 2000, words: true }, "get_transcript");
      expect(page.characters).toBeLessThanOrEqual(2000);
      expect(JSON.stringify(page.segments).length).toBeLessThanOrEqual(2000);
      expect(page.segments![0]).not.toHaveProperty("words");
      expect(page.next_from_character).toBe(page.segments![0]!.text.length);
    });
  });
});
