import { describe, expect, it } from "vitest";
import { SAMPLE_META, makeLongTranscript } from "@/test/formats/fixtures";
import { FORMATS, normalizeSegments, parseFormat, renderTranscript } from "./index";
import { validateSrt } from "@/test/formats/srt-validator";
import { MESSY, SHORT } from "@/test/formats/helpers";

describe("renderTranscript", () => {
  it("returns content, content type and extension for every format", () => {
    const expected = {
      json: ["application/json; charset=utf-8", "json"],
      text: ["text/plain; charset=utf-8", "txt"],
      srt: ["application/x-subrip; charset=utf-8", "srt"],
      vtt: ["text/vtt; charset=utf-8", "vtt"],
      md: ["text/markdown; charset=utf-8", "md"],
    } as const;
    for (const format of FORMATS) {
      const out = renderTranscript(format, SHORT, SAMPLE_META);
      expect([out.contentType, out.extension], format).toEqual(expected[format]);
      expect(out.content.length, format).toBeGreaterThan(0);
    }
  });

  it("dispatches to the right renderer", () => {
    expect(
      renderTranscript("srt", SHORT, SAMPLE_META).content.startsWith(
        "1\n00:00:00,000 --> 00:00:02,500\nHello world.\n",
      ),
    ).toBe(true);
    expect(
      renderTranscript("vtt", SHORT, SAMPLE_META).content.startsWith("WEBVTT\n\n00:00:00.000 --> 00:00:02.500\n"),
    ).toBe(true);
    expect(renderTranscript("text", SHORT, SAMPLE_META).content).toBe(
      "Hello world. Second line with newline Fish & chips <b>bold</b> --> arrow\n",
    );
    expect(renderTranscript("md", SHORT, SAMPLE_META).content.startsWith("# Sample talk\n\nSource: [")).toBe(true);
  });

  it("renders JSON as the normalized segments", () => {
    const { content } = renderTranscript("json", MESSY, SAMPLE_META);
    expect(JSON.parse(content)).toEqual({ segments: normalizeSegments(MESSY) });
    expect(JSON.parse(renderTranscript("json", SHORT, SAMPLE_META).content).segments[1]).toEqual({
      start: 2.5,
      end: 5,
      text: "Second line with newline",
    });
    expect(renderTranscript("json", [], SAMPLE_META).content).toBe('{"segments":[]}');
  });

  it("works with tokens from parseFormat", () => {
    const format = parseFormat(" SRT ");
    expect(format).toBe("srt");
    expect(validateSrt(renderTranscript(format!, MESSY, SAMPLE_META).content)).toEqual([]);
  });

  it("renders every format of a 10-hour, 36,000-segment transcript", () => {
    const input = makeLongTranscript(36_000);
    const json = JSON.parse(renderTranscript("json", input, SAMPLE_META).content) as { segments: unknown[] };
    expect(json.segments).toHaveLength(36_000);
    const srt = renderTranscript("srt", input, SAMPLE_META).content;
    expect(srt.split("\n\n")).toHaveLength(36_000);
    const vtt = renderTranscript("vtt", input, SAMPLE_META).content;
    expect(vtt.split("\n\n")).toHaveLength(36_001);
    expect(renderTranscript("text", input, SAMPLE_META).content.length).toBeGreaterThan(1_000_000);
    expect(renderTranscript("md", input, SAMPLE_META).content).toContain("[10:00:");
  });
});
