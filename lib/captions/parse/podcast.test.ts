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
    // One segment per word: read as each speaker's turn (5 words and 2 names in, 5 words and 2 names out).
    expect(cues).toEqual([
      { start: 0.5, end: 2.5, text: "I am your father.", speaker: "Darth Vader" },
      { start: 2.75, end: 3, text: "Nooooo", speaker: "Luke" },
    ]);
    expect(parsePodcastJson(body)).toEqual(cues);
  });

  it("groups a word-level file's words into turns: at a speaker change, a long pause, a long turn's sentence end", () => {
    const seg = (startTime: number, body: string, speaker = "Ann") => ({
      startTime,
      endTime: startTime + 0.3,
      body,
      speaker,
    });
    const many = Array.from({ length: 45 }, (_, i) => seg(20 + i * 0.4, i === 44 ? "end." : "word"));
    const body = JSON.stringify({
      version: "1.0.0",
      segments: [
        seg(0, "Hello"),
        seg(0.4, ","),
        seg(0.8, "Bob."),
        seg(1.2, "Hi", "Bob"),
        seg(5, "Later", "Bob"),
        ...many,
        seg(38.4, "Next"),
      ],
    });
    const cues = parsePodcastJson(body);
    expect(cues.map((c) => [c.speaker, c.text.split(" ").length, c.text.slice(0, 12)])).toEqual([
      ["Ann", 2, "Hello, Bob."],
      ["Bob", 1, "Hi"],
      ["Bob", 1, "Later"],
      ["Ann", 45, "word word wo"],
      ["Ann", 1, "Next"],
    ]);
    // A file of whole lines is left as it is.
    const lines = JSON.stringify({ segments: [seg(0, "One line here."), seg(0.5, "Another line.")] });
    expect(parsePodcastJson(lines).map((c) => c.text)).toEqual(["One line here.", "Another line."]);
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
