/**
 * The one caption parser: every provider (youtube/ through youtubei.js, ytdlp/ for the other
 * platforms and as YouTube's second path) turns a caption file into segments here.
 *
 *   const cues = parseCaptions(body, "vtt");          // the content decides; the hint breaks ties
 *   const segments = captionSegments(cues, track.kind); // auto and translated tracks de-duplicated
 *
 * One file per format (json3.ts, srv3.ts for srv3 and the classic XML, vtt.ts, srt.ts, ttml.ts,
 * podcast.ts for the Podcasting 2.0 JSON and HTML transcripts),
 * HLS WebVTT in hls.ts, text cleaning in text.ts, rolling-caption de-duplication in dedup.ts.
 * Word times (docs/decisions/0006-word-times-where-the-source-measured-them.md): the parsers keep the words a file
 * times itself (Cue.words: json3 `tOffsetMs`, srv3 `<s t>`, WebVTT `<00:00:01.469>` tags; TTML and the classic XML
 * are read by the line), dedup.ts keeps each once with its own time, and captionSegments keeps them for automatic
 * tracks only.
 * Pure: no I/O.
 */
import type { CaptionKind } from "@/lib/captions/types";
import type { Segment } from "@/lib/formats/types";

import { dedupe, tidy } from "./dedup";
import { parseJson3 } from "./json3";
import { namedTurns } from "./named-turns";
import { parsePodcastHtml, parsePodcastJson } from "./podcast";
import { parseSrt } from "./srt";
import { parseSrv3, parseTranscriptXml } from "./srv3";
import { CaptionParseError, type CaptionFormat, type Cue, type Dropped, stripBom } from "./text";
import { parseTtml } from "./ttml";
import { parseVtt } from "./vtt";

export {
  CaptionParseError,
  cleanText,
  decodeCaptionBytes,
  decodeEntities,
  isBlankBytes,
  parseClockMs,
  type CaptionFormat,
  type Cue,
  type Dropped,
} from "./text";
export { dedupe, isRollingTrack, longestOverlap, repeatedNgramCount, tidy } from "./dedup";
export { isM3u8, mergeHlsVtt, parseM3u8Segments } from "./hls";
export { parseJson3 } from "./json3";
export { namedTurns } from "./named-turns";
export { parsePodcastHtml, parsePodcastJson } from "./podcast";
export { parseSrt } from "./srt";
export { parseSrv3, parseTranscriptXml } from "./srv3";
export { parseTtml, parseTtmlTime } from "./ttml";
export { parseVtt, parseVttDocument } from "./vtt";

const SRT_START = /^\d+[ \t]*\r?\n[ \t]*\d+:\d{2}:\d{2}[,.]\d{1,3}[ \t]*-->/;
const TIMING_START = /^\d+:\d{2}:\d{2}[,.]\d{1,3}[ \t]*-->/;

/** Which format a body is in, from its first bytes (platforms do not always honour what was asked for). */
export function sniffFormat(body: string): CaptionFormat | null {
  const head = stripBom(body).trimStart().slice(0, 1024);
  if (head.startsWith("{")) return /"segments"\s*:/.test(head) && !/"events"\s*:/.test(head) ? "podcast-json" : "json3";
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return "vtt";
  if (head.startsWith("<")) {
    if (/<transcript\b/i.test(head)) return "transcript";
    if (/<timedtext\b/i.test(head)) return "srv3";
    if (/<(?:[A-Za-z_][\w.-]*:)?tt\b/.test(head)) return "ttml";
    return null;
  }
  if (SRT_START.test(head) || TIMING_START.test(head)) return "srt";
  return null;
}

const PARSERS: Readonly<Record<CaptionFormat, (body: string, dropped?: Dropped) => Cue[]>> = {
  json3: parseJson3,
  srv3: parseSrv3,
  transcript: parseTranscriptXml,
  vtt: parseVtt,
  srt: parseSrt,
  ttml: parseTtml,
  "podcast-json": parsePodcastJson,
  "podcast-html": parsePodcastHtml,
  "podcast-srt": (body, dropped) => namedTurns(parseSrt(body, dropped)),
};

/**
 * Parses a caption file. The content decides the format when it is recognisable; otherwise the
 * declared format is tried. Throws CaptionParseError when neither works. `dropped` counts what a file held that
 * could not be read (VTT, SRT and Podcasting 2.0 JSON; the other formats are read whole or refused).
 */
export function parseCaptions(body: string, declared?: CaptionFormat, dropped?: Dropped): Cue[] {
  const sniffed = sniffFormat(body);
  // A podcast's SRT is SRT that may name its speakers: the declared kind says which reading applies.
  const format = sniffed === "srt" && declared === "podcast-srt" ? declared : (sniffed ?? declared);
  if (!format) throw new CaptionParseError("The caption track is in a format Verbatim does not read.");
  return PARSERS[format](body, dropped);
}

/**
 * Cues → the segments stored for a track. Machine-made tracks (auto captions and their machine
 * translations) lose their rolling repetition (dedupe); manual captions are only tidied (a song's
 * repeated chorus is content). Only automatic captions keep their word times: a manual
 * track is timed by the line, and a machine translation's words were never spoken at the times of
 * the words it translates.
 */
export function captionSegments(cues: readonly Cue[], kind: CaptionKind): Segment[] {
  if (kind === "manual") return tidy(cues);
  const segments = dedupe(cues);
  return kind === "auto" ? segments : segments.map(({ start, end, text }) => ({ start, end, text }));
}
