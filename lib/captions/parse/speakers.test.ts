/**
 * Speakers as a source names them: every form a parser reads, and real podcast transcripts from public
 * repositories (test/fixtures/feeds/README.md), names in → names out through parsing, storing and each format.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import webvtt from "webvtt-parser";
import htmlEntities from "webvtt-parser/html-entities.json";
import { describe, expect, it } from "vitest";

import { readCaptionJob } from "@/lib/captions/caption-job";
import { normalizeSegments } from "@/lib/formats/normalize";
import { MAX_SPEAKER_CHARS, MAX_SPEAKERS, speakersOf } from "@/lib/formats/speakers";
import { renderJson } from "@/lib/formats/json";
import { renderSrt } from "@/lib/formats/srt";
import { renderVtt } from "@/lib/formats/vtt";
import { parseSrtStrict } from "@/test/formats/srt-validator";

import { namedTurns, parseCaptions, parsePodcastHtml, parsePodcastJson, parseSrt, parseVtt } from "./index";

const fixture = (name: string) => readFileSync(path.join("test/fixtures/feeds", name), "utf8");
const who = (cues: readonly { text: string; speaker?: string }[]) => cues.map((c) => [c.speaker ?? null, c.text]);
const vtt = (cues: string) => `WEBVTT\n\n${cues}\n`;

describe("Podcasting 2.0 JSON and HTML", () => {
  it("keeps a JSON segment's speaker, and none where it names none or a blank one", () => {
    const cues = parsePodcastJson(
      JSON.stringify({
        segments: [
          { speaker: "Ada &amp; Co", startTime: 0, endTime: 1, body: "Hi" },
          { startTime: 1, endTime: 2, body: "there" },
          { speaker: "  ", startTime: 2, endTime: 3, body: "again" },
          { speaker: 7, startTime: 3, endTime: 4, body: "odd" },
        ],
      }),
    );
    // One word a segment: the words run on as one turn while no one is named.
    expect(who(cues)).toEqual([
      ["Ada & Co", "Hi"],
      [null, "there again odd"],
    ]);
  });

  it("gives each HTML paragraph the <cite> before it, until the next one", () => {
    const html =
      "<cite>Travis:</cite>\n<time>0:00</time>\n<p>One.</p>\n<time>0:05</time>\n<p>Two.</p>\n" +
      "<cite>Sarah:</cite>\n<time>0:09</time>\n<p>Three.</p>";
    expect(who(parsePodcastHtml(html))).toEqual([
      ["Travis", "One."],
      ["Travis", "Two."],
      ["Sarah", "Three."],
    ]);
    expect(who(parsePodcastHtml("<time>0:00</time><p>Nobody named.</p>"))).toEqual([[null, "Nobody named."]]);
  });
});

describe("WebVTT voices", () => {
  it("reads <v Name>, <v.class Name> and a voice left open to the cue's end", () => {
    const cues = parseVtt(
      vtt(
        "00:00:00.000 --> 00:00:01.000\n<v Esme Tanner>Hello.</v>\n\n" +
          "00:00:01.000 --> 00:00:02.000\n<v.loud.first Mary>Hi!\n\n" +
          "00:00:02.000 --> 00:00:03.000\nNo voice here.",
      ),
    );
    expect(who(cues)).toEqual([
      ["Esme Tanner", "Hello."],
      ["Mary", "Hi!"],
      [null, "No voice here."],
    ]);
  });

  it("splits a cue with several voices into one cue each, in order, sharing its time by their text", () => {
    const cues = parseVtt(vtt("00:00:10.000 --> 00:00:14.000\n<v Alice>Hi Bob.</v> <v Bob>Hello Alice!</v>"));
    expect(cues).toEqual([
      { start: 10, end: 11.474, text: "Hi Bob.", speaker: "Alice" },
      { start: 11.474, end: 14, text: "Hello Alice!", speaker: "Bob" },
    ]);
    // On separate rows, the second voice unclosed; text after a closed voice stays with it.
    expect(who(parseVtt(vtt("00:00:00.000 --> 00:00:02.000\n- <v A>Yes</v> indeed\n<v B>No")))).toEqual([
      ["A", "- Yes indeed"],
      ["B", "No"],
    ]);
  });

  it("reads a `<v` that never closes its tag as text, not as a voice", () => {
    const cues = parseVtt(vtt("00:00:00.000 --> 00:00:01.000\n<v Bob hello there"));
    expect(who(cues)).toEqual([[null, "<v Bob hello there"]]);
  });
});

describe("a podcast SRT's `Name:` labels", () => {
  const srt = (...texts: string[]) =>
    texts
      .map(
        (t, i) =>
          `${i + 1}\n00:00:${String(i).padStart(2, "0")},000 --> 00:00:${String(i).padStart(2, "0")},900\n${t}\n`,
      )
      .join("\n");

  it("reads a label where the speaker changes, the cues after it the same speaker's", () => {
    const cues = parseCaptions(
      srt("Travis: When you first", "get started.", "Dr. Jane Doe: Right.", "Indeed"),
      "podcast-srt",
    );
    expect(who(cues)).toEqual([
      ["Travis", "When you first"],
      ["Travis", "get started."],
      ["Dr. Jane Doe", "Right."],
      ["Dr. Jane Doe", "Indeed"],
    ]);
  });

  it("keeps a role the label gives after the name as part of it", () => {
    const cues = parseCaptions(srt("Leo Dion (host): Welcome.", "Tim Mitra (guest): Hey.", "Thanks."), "podcast-srt");
    expect(who(cues)).toEqual([
      ["Leo Dion (host)", "Welcome."],
      ["Tim Mitra (guest)", "Hey."],
      ["Tim Mitra (guest)", "Thanks."],
    ]);
  });

  it("takes a name used once as a label only after a sentence's end, or a name used twice anywhere", () => {
    const cues = parseCaptions(
      srt("Sarah: So we start.", "and then you see", "Gilon: things change.", "Travis: Yes.", "Gilon: Sure."),
      "podcast-srt",
    );
    // Gilon's first label follows no sentence end but the name labels two cues; Travis follows one.
    expect(who(cues).map(([s]) => s)).toEqual(["Sarah", "Sarah", "Gilon", "Travis", "Gilon"]);
    const midSentence = parseCaptions(srt("Sarah: So you write to the", "Editor: a letter."), "podcast-srt");
    expect(who(midSentence)).toEqual([
      ["Sarah", "So you write to the"],
      ["Sarah", "Editor: a letter."],
    ]);
  });

  it("leaves remarks, times, lower-case words and long phrases as text", () => {
    const cues = parseCaptions(
      srt(
        "Note: this episode was recorded live.",
        "Update: we fixed it.",
        "10:30: the meeting.",
        "the host: hello.",
        "This Is A Long Heading: no.",
        "Warning: loud.",
        "Update (later): a correction.",
      ),
      "podcast-srt",
    );
    expect(cues.every((c) => c.speaker === undefined)).toBe(true);
    expect(cues[0]!.text).toBe("Note: this episode was recorded live.");
  });

  it("reads no labels in SRT that is not a podcast's (platform captions keep their text)", () => {
    expect(who(parseCaptions(srt("Travis: Hello.", "Travis: Again.")))).toEqual([
      [null, "Travis: Hello."],
      [null, "Travis: Again."],
    ]);
    expect(who(namedTurns(parseSrt(srt("Kim: Hi", "Hey")), new Set(["Kim"])))).toEqual([
      ["Kim", "Hi"],
      ["Kim", "Hey"],
    ]);
  });
});

describe("bounds", () => {
  const job = (body: string, format: "podcast-json" | "vtt") =>
    readCaptionJob({ kind: "captions", body, format, track: "manual" });

  it("refuses a 10 MB name with a sentence that says so", () => {
    const name = "N".repeat(10 * 1024 * 1024);
    const json = JSON.stringify({ segments: [{ speaker: name, startTime: 0, endTime: 1, body: "Hi" }] });
    expect(job(json, "podcast-json")).toEqual({
      ok: false,
      tooLarge: true,
      message: `A speaker's name is 10,485,760 characters long; Verbatim keeps names of at most ${MAX_SPEAKER_CHARS}.`,
    });
    const outcome = job(vtt(`00:00:00.000 --> 00:00:01.000\n<v ${name}>Hi`), "vtt");
    expect(outcome.ok).toBe(false);
  });

  it("refuses a file naming thousands of speakers, and keeps one at the bound", () => {
    const segments = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ speaker: `Guest ${i}`, startTime: i, endTime: i + 1, body: "word" }));
    const over = job(JSON.stringify({ segments: segments(5000) }), "podcast-json");
    expect(over).toMatchObject({
      ok: false,
      tooLarge: true,
      message: expect.stringContaining(`more than ${MAX_SPEAKERS} speakers`),
    });
    const at = job(JSON.stringify({ segments: segments(MAX_SPEAKERS) }), "podcast-json");
    expect(at.ok && speakersOf(at.segments).length).toBe(MAX_SPEAKERS);
  });
});

// Real podcast transcripts: the names each file gives, and the same names after storing (normalizing) and in
// every format with a place for them.
const strictVtt = new webvtt.WebVTTParser(htmlEntities as Record<string, string>);
const REAL: { file: string; format: "podcast-json" | "podcast-html" | "vtt" | "podcast-srt"; names: string[] }[] = [
  { file: "transcript-example.json", format: "podcast-json", names: ["Darth Vader", "Luke"] },
  { file: "transcript-example.html", format: "podcast-html", names: ["Travis", "Sarah", "Gilon"] },
  { file: "transcript-example.vtt", format: "vtt", names: ["Sarah", "Gillian"] },
  { file: "transcript-example.srt", format: "podcast-srt", names: ["Travis", "Sarah", "Gilon"] },
  { file: "antennapod-speakers.vtt", format: "vtt", names: ["Speaker 1", "Speaker 2"] },
  { file: "antennapod-speakers.srt", format: "podcast-srt", names: ["John Doe"] },
  { file: "devinterrupted-labs.txt", format: "vtt", names: ["Yishai Beeri", "Conor Bronsdon", "Dan Lines"] },
  {
    file: "oxide-shipping-rack.html",
    format: "podcast-html",
    names: ["Speaker 1", "Speaker 2", "Speaker 3", "Speaker 4", "Speaker 5"],
  },
  { file: "empowerapps-yak-shaving.srt", format: "podcast-srt", names: ["Leo Dion (host)", "Tim Mitra (guest)"] },
];

/** Names a file's SRT output writes but this reader keeps as text when reading it back (used once, mid-sentence). */
const readAsText: Record<string, string[]> = { "oxide-shipping-rack.html": ["Speaker 3"] };

describe("real podcast transcripts: names in, names out", () => {
  for (const { file, format, names } of REAL) {
    it(file, () => {
      const outcome = readCaptionJob({ kind: "captions", body: fixture(file), format, track: "manual" });
      if (!outcome.ok) throw new Error(outcome.message);
      const stored = normalizeSegments(outcome.segments);
      expect(speakersOf(stored)).toEqual(names);
      expect(stored.every((s) => !names.some((name) => s.text.startsWith(`${name}:`)))).toBe(true);
      // JSON
      const json = JSON.parse(renderJson(stored)) as { segments: { speaker?: string }[] };
      expect(json.segments.map((s) => s.speaker)).toEqual(stored.map((s) => s.speaker));
      // WebVTT, through a strict parser: every cue with a speaker opens with its voice
      const parsed = strictVtt.parse(renderVtt(stored));
      expect(parsed.errors).toEqual([]);
      expect(parseVtt(renderVtt(stored)).map((c) => c.speaker)).toEqual(stored.map((s) => s.speaker));
      // SRT, valid, a `Name:` label where the speaker changes and nowhere else; read back as this reader reads
      // any podcast's SRT (a name used once, in a running sentence, stays text: see named-turns.ts)
      const srt = renderSrt(stored);
      expect(parseSrtStrict(srt).errors).toEqual([]);
      const turns = stored.map((s) => s.speaker).filter((name, i, all) => name !== undefined && name !== all[i - 1]);
      const labels = parseCaptions(srt, "srt").flatMap((c) => names.filter((name) => c.text.startsWith(`${name}: `)));
      expect(labels).toEqual(turns);
      const back = speakersOf(parseCaptions(srt, "podcast-srt"));
      expect(names.filter((name) => !back.includes(name))).toEqual(readAsText[file] ?? []);
    });
  }
});
