import { readFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readCaptionJob } from "@/lib/captions/caption-job";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import type { Segment } from "@/lib/formats";
import { normalizeSegments } from "@/lib/formats/normalize";
import { readCaptionFile } from "@/test/fixtures/captions";
import { renderNote, type NoteSource } from "./note";

const APP = "https://verbatim.example";
const feedFixture = (name: string) => readFileSync(path.join("test/fixtures/feeds", name), "utf8");

function captions(file: string, kind: "auto" | "manual"): Segment[] {
  return normalizeSegments(captionSegments(parseCaptions(readCaptionFile(file)), kind));
}

function podcast(file: string, format: "podcast-html" | "podcast-json"): Segment[] {
  const outcome = readCaptionJob({ kind: "captions", body: feedFixture(file), format, track: "manual" });
  if (!outcome.ok) throw new Error(outcome.message);
  return normalizeSegments(outcome.segments);
}

/**
 * The note split as a notes app reads it: the front matter's properties and the body. A YAML 1.2 reader reads the
 * same values as a 1.1 reader, except that a date stays its text.
 */
function read(note: string): { properties: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?\n)---\n\n([\s\S]*)$/.exec(note);
  if (!match) throw new Error(`no front matter:\n${note.slice(0, 300)}`);
  const old = parseYaml(match[1]!, { version: "1.1" }) as Record<string, unknown>;
  const current = parseYaml(match[1]!, { version: "1.2" }) as Record<string, unknown>;
  const day = (_: string, value: unknown) =>
    typeof value === "string" ? value.replace(/T00:00:00\.000Z$/, "") : value;
  expect(JSON.stringify(current, day)).toBe(JSON.stringify(old, day));
  return { properties: old, body: match[2]! };
}

/** Each paragraph's timestamp link as a Markdown renderer makes it: [text, href]. */
function timestampLinks(body: string): [string, string][] {
  const html = new MarkdownIt().render(body);
  return [...html.matchAll(/<a href="([^"]*)">(\d{1,2}:\d{2}(?::\d{2})?)<\/a>/g)].map((m) => [
    m[2]!,
    m[1]!.replace(/&amp;/g, "&"),
  ]);
}

const grit: NoteSource = {
  id: "cm9grit0000000000000000001",
  platform: "youtube",
  videoId: "H14bBuluwB8",
  lang: "en",
  title: "Grit: the power of passion and perseverance | Angela Lee Duckworth",
  sourceUrl: "https://www.youtube.com/watch?v=H14bBuluwB8",
  durationSeconds: 376,
  segments: captions("kyamashiro.grit.en.xml", "manual"),
  channel: "TED",
  publishedAt: "20130509",
  chapters: [
    { start: 0, title: "Teaching seventh graders" },
    { start: 120, title: "What is grit?" },
  ],
  transcribedAt: new Date("2026-04-30T23:30:00Z"),
};

describe("renderNote: a YouTube talk with chapters (kyamashiro.grit.en.xml)", () => {
  const note = renderNote(grit, APP);
  const { properties, body } = read(note);

  it("writes every property a notes app shows", () => {
    expect(properties).toEqual({
      title: grit.title,
      source: grit.sourceUrl,
      channel: "TED",
      published: new Date("2013-05-09T00:00:00Z"),
      transcribed: new Date("2026-04-30T00:00:00Z"),
      duration: "06:16",
      duration_seconds: 376,
      language: "en",
      tags: ["transcript", "youtube"],
      platform: "youtube",
      verbatim_id: grit.id,
      verbatim_url: `${APP}/dashboard?transcript=${grit.id}`,
    });
    expect(note).toMatch(/^published: 2013-05-09$/m);
  });

  it("makes chapters headings and links each paragraph's timestamp to YouTube's moment", () => {
    expect(body).toMatch(/^# Grit: the power of passion and perseverance \\\| Angela Lee Duckworth$/m);
    expect(body).toMatch(/^## Teaching seventh graders\n\n\[00:\d\d\]/m);
    expect(body).toMatch(/^## What is grit\?\n\n\[0[2-9]:\d\d\]/m);
    const links = timestampLinks(body);
    expect(links.length).toBeGreaterThan(3);
    for (const [clock, href] of links) {
      const [m, s] = clock.split(":").map(Number);
      expect(href).toBe(`https://www.youtube.com/watch?v=H14bBuluwB8&t=${m! * 60 + s!}s`);
    }
    expect(body).toContain("When I was 27 years old");
  });

  it("is the same bytes on every export", () => {
    expect(renderNote({ ...grit, segments: captions("kyamashiro.grit.en.xml", "manual") }, APP)).toBe(note);
  });
});

describe("renderNote: a podcast that names its speakers (oxide-shipping-rack.html)", () => {
  const source: NoteSource = {
    id: "cm9oxide000000000000000001",
    platform: "podcast",
    videoId: "0f3c9a1b2d4e5f60",
    lang: "en",
    title: "Tales from Manufacturing: Shipping Rack 1",
    sourceUrl: "https://oxide.computer/podcasts/oxide-and-friends/shipping-rack-1.mp3?src=feed",
    durationSeconds: 5400,
    segments: podcast("oxide-shipping-rack.html", "podcast-html"),
    channel: "Oxide and Friends",
    publishedAt: "Mon, 03 Jul 2023 17:00:00 GMT",
    chapters: [],
    transcribedAt: null,
  };
  const { properties, body } = read(renderNote(source, APP));

  it("lists the speakers the source names, calls the channel a show, and has no transcribed date it lacks", () => {
    expect(properties.speakers).toEqual(["Speaker 1", "Speaker 2", "Speaker 3", "Speaker 4", "Speaker 5"]);
    expect(properties.show).toBe("Oxide and Friends");
    expect(properties.channel).toBeUndefined();
    expect(properties.published).toEqual(new Date("2023-07-03T00:00:00Z"));
    expect(properties.duration).toBe("1:30:00");
    expect("transcribed" in properties).toBe(false);
  });

  it("names each speaker as the source does, and links moments into the audio file with a media fragment", () => {
    expect(body).toMatch(/\) \*\*Speaker 1:\*\* /);
    expect(body).toMatch(/\) \*\*Speaker 2:\*\* /);
    const links = timestampLinks(body);
    expect(links.length).toBeGreaterThan(3);
    for (const [clock, href] of links) {
      const seconds = clock
        .split(":")
        .map(Number)
        .reduce((total, part) => total * 60 + part, 0);
      expect(href).toBe(`${source.sourceUrl}#t=${seconds}`);
    }
  });
});

describe("renderNote: where the platform has no deep link of its own", () => {
  const segments = captions("webvtt-py.sample.srt", "manual");
  const base = { lang: "en", durationSeconds: 60, segments, channel: null, publishedAt: null, chapters: [] };

  it("adds ?t= to the link (and &t= after a query of its own)", () => {
    const tiktok: NoteSource = {
      ...base,
      id: "t1",
      platform: "tiktok",
      videoId: "7301234567890123456",
      title: "A clip",
      sourceUrl: "https://www.tiktok.com/@someone/video/7301234567890123456?lang=en",
      transcribedAt: null,
    };
    const links = timestampLinks(read(renderNote(tiktok, APP)).body);
    expect(links[0]).toEqual(["00:00", "https://www.tiktok.com/@someone/video/7301234567890123456?lang=en&t=0"]);
    const x = { ...tiktok, platform: "x", sourceUrl: "https://x.com/someone/status/1" };
    expect(timestampLinks(read(renderNote(x, APP)).body)[0]).toEqual(["00:00", "https://x.com/someone/status/1?t=0"]);
  });

  it("opens an upload's moments in the viewer on this server, and never shows its storage path", () => {
    const upload: NoteSource = {
      ...base,
      id: "cm9upload",
      platform: "upload",
      videoId: "abc",
      title: "meeting.m4a",
      sourceUrl: "upload:users/u1/abc/meeting.m4a",
      transcribedAt: null,
    };
    const note = renderNote(upload, APP);
    expect(note).not.toContain("users/u1");
    const { properties, body } = read(note);
    expect(properties.source).toBe(`${APP}/dashboard?transcript=cm9upload`);
    expect(timestampLinks(body)[0]).toEqual(["00:00", `${APP}/dashboard?transcript=cm9upload&t=0`]);
  });
});

describe("renderNote: values a YAML reader would misread", () => {
  const tricky = [
    "yes",
    "No",
    "on",
    "~",
    "null",
    "12:30",
    "0x1F",
    "1e3",
    "2024-01-02",
    "- a list?",
    "key: value",
    "#tag",
    "'quoted' \"both\"",
    "@mention",
    "*alias",
    "!tag",
    "%YAML",
    "  lead",
  ];
  for (const title of tricky) {
    it(JSON.stringify(title), () => {
      const note = renderNote(
        { ...grit, title, channel: title, segments: grit.segments.slice(0, 3), chapters: [] },
        APP,
      );
      const { properties } = read(note);
      expect(properties.title).toBe(title.trim());
      expect(properties.channel).toBe(title.trim());
    });
  }

  it("keeps a speaker named like a boolean a name", () => {
    const segments = [
      { start: 0, end: 2, text: "Hello.", speaker: "Yes" },
      { start: 2, end: 4, text: "Hi.", speaker: "null" },
    ];
    expect(read(renderNote({ ...grit, segments, chapters: [] }, APP)).properties.speakers).toEqual(["Yes", "null"]);
  });
});
