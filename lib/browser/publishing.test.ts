import { describe, expect, it } from "vitest";
import { historyPublishing, isLoopbackUrl, tagParts } from "@/lib/browser/publishing";
import type { TranscriptionEntry } from "@/lib/browser/transcripts";

describe("feed tags on the Published page", () => {
  it("knows an APP_URL that only this machine reaches", () => {
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1:3123/t/x",
      "http://[::1]:3000",
      "http://0.0.0.0:3000",
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      "https://verbatim.example",
      "http://10.0.0.5:3000",
      "https://localhost.example.com",
      "not a url",
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });

  it("cuts a tag only between its attributes, and the pieces joined by spaces are the tag", () => {
    const tag =
      '<podcast:transcript url="https://verbatim.example/v1/public/a-talk/transcript.vtt" type="text/vtt" language="en" rel="captions" />';
    const parts = tagParts(tag);
    expect(parts).toEqual([
      "<podcast:transcript",
      'url="https://verbatim.example/v1/public/a-talk/transcript.vtt"',
      'type="text/vtt"',
      'language="en"',
      'rel="captions" />',
    ]);
    expect(parts.join(" ")).toBe(tag);
  });
});

describe("historyPublishing", () => {
  const entry: TranscriptionEntry = {
    id: "h1",
    video_id: "dQw4w9WgXcQ",
    lang: "en",
    source: "youtube",
    duration_seconds: 60,
    total_seconds: 60,
    complete: true,
    job_id: null,
    status: "done",
    created_at: "2026-01-02T03:04:05.000Z",
    source_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    title: "A video",
    thumbnail_url: null,
    transcript_id: "t1",
    published_slug: null,
    error: null,
  };

  it("offers Publish for a finished transcript that is not published", () => {
    expect(historyPublishing(entry)).toEqual({
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      lang: "en",
      published: null,
    });
  });

  it("offers the public page, not Publish, for a published one", () => {
    expect(historyPublishing({ ...entry, published_slug: "a-video-abc234" })?.published).toEqual({
      slug: "a-video-abc234",
      url: "/t/a-video-abc234",
    });
  });

  it("offers nothing for an entry in progress or failed", () => {
    expect(historyPublishing({ ...entry, complete: false, status: "in_progress", transcript_id: null })).toBeNull();
    expect(historyPublishing({ ...entry, complete: false, status: "error", transcript_id: null })).toBeNull();
  });
});
