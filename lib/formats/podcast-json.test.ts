import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import { parsePodcastJson } from "@/lib/captions/parse/podcast";
import { PODCAST_TRANSCRIPT_EXAMPLE, PODCAST_TRANSCRIPT_SCHEMA } from "@/test/formats/podcast-transcript-schema";
import { MESSY } from "@/test/formats/helpers";
import { REAL_CAPTION_FILES, readCaptionFile } from "@/test/fixtures/captions";
import { normalizeSegments } from "./normalize";
import { renderPodcastJson } from "./podcast-json";
import type { Segment } from "./types";

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(PODCAST_TRANSCRIPT_SCHEMA);

function expectValid(json: string) {
  const doc: unknown = JSON.parse(json);
  if (!validate(doc)) expect.fail(JSON.stringify(validate.errors));
  return doc as typeof PODCAST_TRANSCRIPT_EXAMPLE;
}

describe("the schema of the Podcasting 2.0 JSON transcript", () => {
  it("accepts the format's own example and refuses what the format does not allow", () => {
    expect(validate(PODCAST_TRANSCRIPT_EXAMPLE)).toBe(true);
    const segment = PODCAST_TRANSCRIPT_EXAMPLE.segments[0]!;
    for (const broken of [
      { segments: [] },
      { version: "1.0.0", segments: [{ ...segment, body: undefined }] },
      { version: "1.0.0", segments: [{ ...segment, startTime: "0.5" }] },
      { version: "1.0.0", segments: [{ ...segment, start: 0.5 }] },
      { version: "1.0.0", segments: [{ ...segment, speaker: "" }] },
    ])
      expect(validate(JSON.parse(JSON.stringify(broken))), JSON.stringify(broken)).toBe(false);
  });
});

describe("renderPodcastJson", () => {
  it("writes the format's example back as it is, speakers included", () => {
    const segments: Segment[] = PODCAST_TRANSCRIPT_EXAMPLE.segments.map((s) => ({
      start: s.startTime,
      end: s.endTime,
      text: s.body,
      speaker: s.speaker,
    }));
    expect(expectValid(renderPodcastJson(segments))).toEqual(PODCAST_TRANSCRIPT_EXAMPLE);
  });

  it("writes every real caption file as a valid transcript with the normalized cues, read back the same by the podcast parser", () => {
    for (const f of REAL_CAPTION_FILES) {
      const segments = captionSegments(parseCaptions(readCaptionFile(f.file), f.format), f.kind);
      const json = renderPodcastJson(segments);
      const doc = expectValid(json);
      const normalized = normalizeSegments(segments);
      expect(doc.version).toBe("1.0.0");
      expect(doc.segments, f.file).toEqual(
        normalized.map((s) => ({ startTime: s.start, endTime: s.end, body: s.text })),
      );
      expect(parsePodcastJson(json).map((c) => c.text)).toEqual(normalized.map((s) => s.text));
    }
  });

  it("names a speaker only where the source does: cleaned, blank names dropped, the first named at a merged start", () => {
    const doc = expectValid(
      renderPodcastJson([
        { start: 0, end: 2, text: "Welcome back.", speaker: "  Sarah\n Lee " },
        { start: 2, end: 4, text: "Thanks for having me.", speaker: "Gillian" },
        { start: 4, end: 5, text: "No name here." },
        { start: 5, end: 6, text: "Blank name.", speaker: "   " },
        { start: 6, end: 7, text: "Same start,", speaker: "" },
        { start: 6, end: 7.5, text: "merged.", speaker: "Sarah Lee" },
        { start: 8, end: 9, text: "   ", speaker: "Nobody" },
      ]),
    );
    expect(doc.segments).toEqual([
      { speaker: "Sarah Lee", startTime: 0, endTime: 2, body: "Welcome back." },
      { speaker: "Gillian", startTime: 2, endTime: 4, body: "Thanks for having me." },
      { startTime: 4, endTime: 5, body: "No name here." },
      { startTime: 5, endTime: 6, body: "Blank name." },
      { speaker: "Sarah Lee", startTime: 6, endTime: 7.5, body: "Same start, merged." },
    ]);
  });

  it("follows the normalizing rules on messy input and writes an empty transcript as no segments", () => {
    const doc = expectValid(renderPodcastJson(MESSY));
    expect(doc.segments.map((s) => [s.startTime, s.endTime, s.body])).toEqual(
      normalizeSegments(MESSY).map((s) => [s.start, s.end, s.text]),
    );
    expect(renderPodcastJson([])).toBe('{"version":"1.0.0","segments":[]}');
  });
});
