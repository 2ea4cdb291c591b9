import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CaptionParseError,
  parseCaptions,
  parsePodcastHtml,
  parsePodcastJson,
  sniffFormat,
} from "@/lib/captions/parse";

// The Podcasting 2.0 namespace's own example transcripts (test/fixtures/feeds/README.md).
const example = (ext: string) => readFileSync(path.join("test/fixtures/feeds", `transcript-example.${ext}`), "utf8");

describe("Podcasting 2.0 transcripts", () => {
  it("reads the JSON format, and sniffs it apart from json3", () => {
    const body = example("json");
    expect(sniffFormat(body)).toBe("podcast-json");
    const cues = parseCaptions(body);
    expect(cues[0]).toEqual({ start: 0.5, end: 0.75, text: "I", speaker: "Darth Vader" });
    expect(
      cues
        .slice(0, 4)
        .map((c) => c.text)
        .join(" "),
    ).toBe("I am your father.");
    expect(parsePodcastJson(body)).toEqual(cues);
  });

  it("reads the HTML format: a paragraph ends where the next begins", () => {
    const cues = parseCaptions(example("html"), "podcast-html");
    expect(cues[0]).toMatchObject({ start: 0, end: 53 });
    expect(cues[0]!.text.startsWith("When you first get started in podcasting, it's almost guaranteed")).toBe(true);
    expect(cues[1]).toMatchObject({ start: 53, end: 102 });
    expect(cues.every((c) => !c.text.includes("<") && !c.text.includes("Travis:"))).toBe(true);
  });

  it("reads the SRT and VTT examples through the existing parsers", () => {
    expect(parseCaptions(example("srt"))[0]).toMatchObject({
      start: 0.179,
      text: "Travis: When you first get started in podcasting, it's",
    });
    expect(parseCaptions(example("vtt")).length).toBeGreaterThan(0);
  });

  it("refuses broken JSON and HTML without times", () => {
    expect(() => parsePodcastJson("{")).toThrow(CaptionParseError);
    expect(() => parsePodcastJson('{"version":"1.0.0"}')).toThrow(CaptionParseError);
    expect(() => parsePodcastHtml("<p>no times</p>")).toThrow(CaptionParseError);
    expect(
      parsePodcastJson(
        '{"segments":[{"startTime":-1,"endTime":2,"body":"x"},{"startTime":3,"endTime":2,"body":"y"},{"startTime":1,"endTime":2,"body":7}]}',
      ),
    ).toEqual([]);
  });
});
