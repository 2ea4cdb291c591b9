import { describe, expect, it } from "vitest";
import { renderPodcastHtml, renderPodcastJson, renderVtt } from "@/lib/formats";
import { parsePodcastHtml, parsePodcastJson } from "./podcast";
import { parseCaptions } from "./index";

// What Verbatim publishes for a podcaster's feed, read back by Verbatim's own reader of publishers' transcripts:
// the speakers come back with their lines.
const SEGMENTS = [
  { start: 0, end: 2, text: "Welcome back to the show.", speaker: "Ann Lee" },
  { start: 2, end: 4, text: "Glad to be here.", speaker: "Bob" },
  { start: 4, end: 6, text: "Let us start with bread.", speaker: "Ann Lee" },
];
const named = (cues: { text: string; speaker?: string }[]) => cues.map(({ text, speaker }) => [speaker, text]);
const expected = SEGMENTS.map(({ text, speaker }) => [speaker, text]);

describe("published transcripts read back", () => {
  it("keeps every speaker through Podcasting 2.0 JSON", () => {
    expect(named(parsePodcastJson(renderPodcastJson(SEGMENTS)))).toEqual(expected);
  });

  it("keeps every speaker through the HTML transcript", () => {
    expect(named(parsePodcastHtml(renderPodcastHtml(SEGMENTS, { title: "Bread", lang: "en" })))).toEqual(expected);
  });

  it("keeps two lines that start within one second apart through the HTML transcript", () => {
    const close = [
      { start: 61.2, end: 62.5, text: "So that is the plan.", speaker: "Ann Lee" },
      { start: 62.5, end: 62.9, text: "Right.", speaker: "Bob" },
      { start: 62.9, end: 65, text: "And then we bake.", speaker: "Ann Lee" },
    ];
    const html = renderPodcastHtml(close, { title: "Bread", lang: "en" });
    expect(html).toContain("<time>1:02.500</time>");
    const cues = parsePodcastHtml(html);
    expect(cues.map(({ start, text, speaker }) => [start, speaker, text])).toEqual(
      close.map(({ start, text, speaker }) => [start, speaker, text]),
    );
  });

  it("keeps every speaker through WebVTT voices", () => {
    expect(named(parseCaptions(renderVtt(SEGMENTS), "vtt"))).toEqual(expected);
  });
});
