// A caption file → its segments, or why not: what the parse thread (lib/app/parse-worker.ts) runs for a
// caption track (parse-off-thread.ts sends it there). The same parser as on the calling thread (parse/).
import {
  CaptionParseError,
  captionSegments,
  decodeCaptionBytes,
  mergeHlsVtt,
  parseCaptions,
  tidy,
} from "@/lib/captions/parse";
import type { CaptionFormat, Dropped } from "@/lib/captions/parse";
import type { CaptionKind } from "@/lib/captions/types";
import { normalizeSegments } from "@/lib/formats/normalize";
import type { Segment } from "@/lib/formats/types";
import { speakerBoundsProblem } from "@/lib/formats/speakers";
import { boundStoredWords } from "@/lib/formats/stored-words";

/**
 * What one platform's track may come back with. Parsing runs in the thread, but everything after it runs on
 * the event loop in time proportional to the segments and words: receiving them from the thread, normalizing,
 * storing, and every later read and rendering of the transcript. A real 3-hour automatic track is about
 * 3,600 lines and 24,000 timed words (kept whole), a 12-hour one 14,500 lines; a manual track has a line
 * every 2-3 s. `npm run bench -- event-loop` measures the worst track these admit
 * (docs/decisions/0001-untrusted-documents-off-the-event-loop.md).
 */
export interface TrackBounds {
  /** Segments (lines) after de-duplication and normalizing; past it the track is refused. */
  maxSegments: number;
  /** Characters of text in all; past it the track is refused. */
  maxTextChars: number;
  /** Word times kept (the segments after them keep their text and times, as lib/formats/stored-words.ts). */
  maxWords: number;
}

export const TRACK_BOUNDS: TrackBounds = { maxSegments: 15_000, maxTextChars: 2_000_000, maxWords: 25_000 };

export interface CaptionJob {
  kind: "captions";
  /** The file (its text, or its bytes, decoded here), or the WebVTT segments of an HLS rendition in order. */
  body: string | Uint8Array | (string | Uint8Array)[];
  /** The declared format (the content decides when it is recognisable). */
  format: CaptionFormat;
  /** The track's kind (captionSegments); null: an author's own file, only tidied (its caller bounds it). */
  track: CaptionKind | null;
  /** A platform track's bounds (TRACK_BOUNDS unless a test passes smaller ones). */
  bounds?: TrackBounds;
}

export type CaptionOutcome =
  | {
      ok: true;
      segments: Segment[];
      /** What the file held that could not be read; absent when nothing. */ dropped?: Dropped;
    }
  | { ok: false; message: string; /** Over TrackBounds (not unreadable). */ tooLarge?: boolean };

/**
 * What the thread posts back: the segments as one JSON text. The calling thread reads that with JSON.parse
 * in about a quarter of the time structured cloning takes to rebuild the same objects.
 */
export type CaptionAnswer = { ok: true; json: string; dropped?: Dropped } | Extract<CaptionOutcome, { ok: false }>;

export function answerCaptionJob(job: CaptionJob): CaptionAnswer {
  const outcome = readCaptionJob(job);
  if (!outcome.ok) return outcome;
  const json = JSON.stringify(outcome.segments);
  return outcome.dropped ? { ok: true, json, dropped: outcome.dropped } : { ok: true, json };
}

export function readCaptionJob(job: CaptionJob): CaptionOutcome {
  try {
    const text = (file: string | Uint8Array) => (typeof file === "string" ? file : decodeCaptionBytes(file));
    const dropped: Dropped = { cues: 0, words: 0 };
    const cues = Array.isArray(job.body)
      ? mergeHlsVtt(job.body.map(text))
      : parseCaptions(text(job.body), job.format, dropped);
    const speakers = speakerBoundsProblem(cues);
    if (speakers !== null) return { ok: false, tooLarge: true, message: speakers };
    const outcome: CaptionOutcome =
      job.track === null
        ? { ok: true, segments: tidy(cues) }
        : boundTrack(normalizeSegments(captionSegments(cues, job.track)), job.bounds ?? TRACK_BOUNDS);
    return outcome.ok && dropped.cues > 0 ? { ...outcome, dropped } : outcome;
  } catch (error) {
    if (error instanceof CaptionParseError) return { ok: false, message: error.message };
    throw error;
  }
}

/** A track's normalized segments within `bounds`: refused past its lines or text, word times kept up to its words. */
export function boundTrack(segments: Segment[], bounds: TrackBounds): CaptionOutcome {
  const count = (n: number) => n.toLocaleString("en-US");
  if (segments.length > bounds.maxSegments) {
    return {
      ok: false,
      tooLarge: true,
      message: `The caption track has ${count(segments.length)} lines; Verbatim keeps at most ${count(bounds.maxSegments)} for one transcript.`,
    };
  }
  let chars = 0;
  for (const segment of segments) chars += segment.text.length;
  if (chars > bounds.maxTextChars) {
    return {
      ok: false,
      tooLarge: true,
      message: `The caption track has ${count(chars)} characters of text; Verbatim keeps at most ${count(bounds.maxTextChars)} for one transcript.`,
    };
  }
  return { ok: true, segments: boundStoredWords(segments, bounds.maxWords) };
}
