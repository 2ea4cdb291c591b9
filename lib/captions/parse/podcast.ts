/**
 * Podcasting 2.0 transcripts (https://github.com/Podcastindex-org/podcast-namespace, docs/examples/transcripts):
 * the JSON format `{version, segments: [{startTime, endTime, body, speaker?}]}` (seconds, often one word per
 * segment: such a file is read as turns, wordTurns) and the HTML format (`<cite>Speaker:</cite> <time>0:53</time> <p>text</p>`, start times only: a
 * paragraph ends where the next begins). VTT and SRT transcripts go through vtt.ts and srt.ts.
 * Speakers are kept as the file names them: the JSON `speaker`, and in HTML the `<cite>` before a `<time>`
 * (which names whoever speaks from there until the next `<cite>`).
 */
import { endsSentence } from "@/lib/formats/paragraphs";

import { replaceElements } from "./elements";
import { type Cue, CaptionParseError, type Dropped, cleanText, countDropped } from "./text";

const MAX_SEGMENTS = 500_000;

/** A file whose segments are this share one word or less is word-level: its words are grouped into turns. */
const WORD_LEVEL_SHARE = 0.8;
/** A silence this long (seconds) between two words starts a new turn. */
const TURN_PAUSE_S = 1.5;
/** Past this many words a turn ends with its sentence, and at the latest at MAX_TURN_WORDS. */
const TURN_WORDS = 40;
const MAX_TURN_WORDS = 120;
/** Punctuation a word-level file gives a segment of its own: joined to the word before, without a space. */
const PUNCTUATION_ONLY = /^[,.;:!?…)\]}"'’”»]+$/u;

const wordCount = (text: string) => text.split(" ").length;

/**
 * Word-level files (one segment per word, as the namespace's own example and many hosting tools write them)
 * as turns: consecutive words of one speaker, broken where the speaker changes, at a long pause, and at a
 * sentence's end once a turn is long; otherwise every word would be a line of its own.
 */
function wordTurns(cues: Cue[]): Cue[] {
  const single = cues.filter((c) => !c.text.includes(" ")).length;
  if (cues.length < 2 || single < cues.length * WORD_LEVEL_SHARE) return cues;
  const turns: Cue[] = [];
  let turn: Cue | null = null;
  let words = 0;
  for (const cue of cues) {
    if (turn && PUNCTUATION_ONLY.test(cue.text) && turn.speaker === cue.speaker) {
      turn.text += cue.text;
      turn.end = Math.max(turn.end, cue.end);
      continue;
    }
    const starts =
      !turn ||
      turn.speaker !== cue.speaker ||
      cue.start - turn.end > TURN_PAUSE_S ||
      (words >= TURN_WORDS && endsSentence(turn.text)) ||
      words >= MAX_TURN_WORDS;
    if (starts) {
      turn = { ...cue };
      turns.push(turn);
      words = wordCount(cue.text);
    } else {
      turn!.text += ` ${cue.text}`;
      turn!.end = Math.max(turn!.end, cue.end);
      words += wordCount(cue.text);
    }
  }
  return turns;
}

export function parsePodcastJson(body: string, dropped?: Dropped): Cue[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new CaptionParseError("The JSON transcript is not valid JSON.");
  }
  const segments = typeof doc === "object" && doc !== null ? (doc as { segments?: unknown }).segments : undefined;
  if (!Array.isArray(segments)) throw new CaptionParseError("The JSON transcript has no segments array.");
  if (segments.length > MAX_SEGMENTS) throw new CaptionParseError("The JSON transcript has too many segments.");
  const cues: Cue[] = [];
  for (const raw of segments) {
    if (typeof raw !== "object" || raw === null) continue;
    const {
      startTime,
      endTime,
      body: text,
      speaker,
    } = raw as { startTime?: unknown; endTime?: unknown; body?: unknown; speaker?: unknown };
    const start = Number(startTime);
    const end = Number(endTime);
    if (typeof text !== "string" || !Number.isFinite(start) || !Number.isFinite(end) || start < 0 || end < start) {
      if (typeof text === "string" && text.trim() !== "") countDropped(dropped, text);
      continue;
    }
    const clean = cleanText(text);
    if (clean !== "") cues.push(withSpeaker({ start, end, text: clean }, typeof speaker === "string" ? speaker : ""));
  }
  return wordTurns(cues);
}

// <time>1:42</time> or <time>01:02:03</time>, then the paragraph up to the next <time> (or <cite>).
const TIME = /<time>\s*((?:\d+:)?\d{1,2}:\d{2}(?:\.\d+)?)\s*<\/time>/gi;
const CITE = /<cite>([^<]*)<\/cite>/gi;

/** A cue with the speaker a file names (cleaned like cue text, a trailing `:` dropped), when it names one. */
export function withSpeaker(cue: Cue, raw: string): Cue {
  const name = cleanText(raw).replace(/\s*:$/, "");
  if (name !== "") cue.speaker = name;
  return cue;
}

export function parsePodcastHtml(body: string): Cue[] {
  const marks = [...body.matchAll(TIME)];
  if (marks.length === 0) throw new CaptionParseError("The HTML transcript has no <time> marks.");
  // To the millisecond, as the times are written (`1:02.500`): no float noise from the sum.
  const starts = marks.map(
    (m) => Math.round(m[1]!.split(":").reduce((total, n) => total * 60 + Number(n), 0) * 1000) / 1000,
  );
  const cites = [...body.matchAll(CITE)];
  let cite = -1; // the last <cite> before this <time>
  const cues: Cue[] = [];
  for (let i = 0; i < marks.length; i++) {
    while (cite + 1 < cites.length && cites[cite + 1]!.index! < marks[i]!.index!) cite++;
    const from = marks[i]!.index! + marks[i]![0].length;
    const to = i + 1 < marks.length ? marks[i + 1]!.index! : body.length;
    const text = cleanText(replaceElements(body.slice(from, to), /<cite(?=>)/gi, /<\/cite>/gi, " "));
    const start = starts[i]!;
    const end =
      i + 1 < marks.length
        ? Math.max(start, starts[i + 1]!)
        : start + Math.max(1, Math.ceil(text.split(" ").length / 3));
    if (text !== "") cues.push(withSpeaker({ start, end, text }, cite >= 0 ? cites[cite]![1]! : ""));
  }
  return cues;
}
