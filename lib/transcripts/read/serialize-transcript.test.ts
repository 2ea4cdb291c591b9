import { describe, expect, it } from "vitest";
import { FORMATS, type Segment } from "@/lib/formats";
import type { TranscriptView } from "./read-transcript";
import { serializedTranscriptJson, serializeTranscript } from "./serialize-transcript";

// A correction's answer is spliced from its segments' JSON text (lib/edits): it must be the same text that
// serializing the transcript whole gives, in every format.

const segments: Segment[] = [
  { start: 0, end: 2.5, text: 'Grit is "passion" and perseverance', words: [{ start: 0, end: 0.4, text: "Grit" }] },
  { start: 2.5, end: 5.125, text: "для долгосрочных целей — 比特币 ✓" },
];

const row: TranscriptView = {
  id: "t1",
  platform: "youtube",
  videoId: "H14bBuluwB8",
  lang: "en",
  origin: "captions",
  captionKind: "manual",
  title: "Grit: the power of passion",
  sourceUrl: "https://www.youtube.com/watch?v=H14bBuluwB8",
  durationSeconds: 6,
  segments: segments as unknown as TranscriptView["segments"],
  servedBy: "innertube:VISIONOS",
  channel: "TED",
  publishedAt: "2013-05-09",
  chapters: [{ start: 0, title: "Opening" }],
  variant: "",
  fetchedAt: new Date("2026-01-02T03:04:05Z"),
  createdAt: new Date("2026-01-02T03:04:05Z"),
  edited: true,
  sourceNote: null,
  revisionId: "r1",
};

describe("serializedTranscriptJson", () => {
  it("is serializeTranscript's JSON text in every format", () => {
    const segmentsJson = JSON.stringify(segments);
    for (const format of FORMATS) {
      const whole = serializeTranscript(row, format);
      const spliced = serializedTranscriptJson(row, format, segmentsJson, whole.content);
      expect(spliced, format).toBe(JSON.stringify(whole));
    }
  });

  it("writes the segments' text as given, not parsed again", () => {
    const spliced = serializedTranscriptJson(row, "json", '[{"start":0,"end":1,"text":"as given"}]', null);
    expect(JSON.parse(spliced).segments).toEqual([{ start: 0, end: 1, text: "as given" }]);
    expect(JSON.parse(spliced).edited).toBe(true);
  });
});
