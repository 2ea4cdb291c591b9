import { describe, expect, it } from "vitest";
import { clock, pendingJobText, transcriptText } from "@/lib/mcp/render";
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
  chapters: [{ start: 0, title: "Intro" }, { start: 83.5, title: "Density" }],
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

  it("a header, then one [hh:mm:ss] line per segment", () => {
    expect(transcriptText(transcript)).toBe(
      [
        "# Why ice floats",
        "Source: https://www.youtube.com/watch?v=Hq7sWc2dT4E",
        "Language: en (manual captions)",
        "Duration: 01:02:05",
        "Channel: Kitchen Physics",
        "Chapters: [00:00:00] Intro; [00:01:23] Density",
        "",
        "[00:00:00] [MUSIC]",
        "[00:01:23] Water is densest at four degrees.",
        "[01:02:04] Bye.",
      ].join("\n"),
    );
  });

  it("rendered formats are given as they are; speech recognition says so; no title falls back to the id", () => {
    const srt = transcriptText({ ...transcript, title: null, channel: null, chapters: [], source: "asr", caption_kind: null, format: "srt", segments: null, content: "1\n00:00:00,000 --> 00:00:02,500\n[MUSIC]\n" });
    expect(srt).toBe("# Hq7sWc2dT4E\nSource: https://www.youtube.com/watch?v=Hq7sWc2dT4E\nLanguage: en (speech recognition)\nDuration: 01:02:05\n\n1\n00:00:00,000 --> 00:00:02,500\n[MUSIC]\n");
  });

  it("a pending job says how to continue", () => {
    expect(pendingJobText({ job_id: "j1", status: "running", stage: "recognize", progress: 0.426 })).toBe(
      'The transcript is being made by speech recognition (job j1: running, recognize, 43%).\nCall get_job with job_id "j1" in a minute or two to get it; longer recordings take longer.',
    );
  });
});
