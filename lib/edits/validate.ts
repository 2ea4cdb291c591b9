import { unstorableReason } from "@/lib/db/storable-text";
import { MAX_SPEAKER_CHARS, MAX_SPEAKERS } from "@/lib/formats/speakers";
import type { Segment } from "@/lib/formats/types";
import type { Loc, ValidationErrorItem } from "@/lib/http/validation";
import type { EditedSegment } from "@/lib/edits/retime";
import { indexTokens } from "@/lib/edits/index-tokens";

// What a corrected transcript must be, whichever way it came (segments, a subtitle file, the dashboard):
// segments in order, none overlapping the one before (except a pair the author's current version already has
// overlapping: two speakers' manual captions), inside the media's duration, with storable, non-empty text
// of bounded length, and word times inside their segment, in order. Every problem is one 422 item.
// What the search index makes of all segments together is bounded too (index-tokens.ts: each part of a
// punctuation-joined word, each pair of adjacent CJK characters): a saved revision is indexed in the same
// statement as its insert (the trigger of migration revision_search), at a cost proportional to those tokens.

export const MAX_SEGMENTS = 50_000;
export const MAX_SEGMENT_CHARS = 5_000;
/**
 * Index tokens in all: a six-hour video's transcript (60,000 to 70,000 spoken words; Chinese spoken for six
 * hours, about 100,000 characters) with room for compounds and numbers, which count a token a part.
 */
export const MAX_INDEX_TOKENS = 100_000;
/** Times are compared to the millisecond, as subtitle files write them. */
const EPSILON = 0.0005;

const key = (s: { start: number; end: number }) => `${Math.round(s.start * 1000)}:${Math.round(s.end * 1000)}`;

function item(loc: Loc, msg: string, input: unknown): ValidationErrorItem {
  return { type: "value_error", loc, msg: `Value error, ${msg}`, input, ctx: { error: {} } };
}

/**
 * The problems of `segments` (empty when there are none). `maxEnd` is the latest a segment may end (the
 * media's duration, or the current version's last end when that is later); `current` is what the author sees now.
 */
export function segmentProblems(
  segments: readonly EditedSegment[],
  maxEnd: number,
  current: readonly Segment[],
  at: Loc = ["body", "segments"],
): ValidationErrorItem[] {
  const problems: ValidationErrorItem[] = [];
  if (segments.length === 0) problems.push(item(at, "give at least one segment", segments));
  if (segments.length > MAX_SEGMENTS) problems.push(item(at, `at most ${MAX_SEGMENTS} segments`, segments.length));
  const overlapping = new Set<string>();
  for (let i = 1; i < current.length; i++)
    if (current[i]!.start < current[i - 1]!.end - EPSILON)
      overlapping.add(`${key(current[i - 1]!)}|${key(current[i]!)}`);
  let tokens = 0;
  segments.forEach((seg, i) => {
    const loc = [...at, i];
    if (tokens <= MAX_INDEX_TOKENS) tokens += indexTokens(seg.text); // counted only until past the bound
    if (!Number.isFinite(seg.start) || seg.start < 0)
      problems.push(item([...loc, "start"], "start must be a time in seconds, 0 or more", seg.start));
    if (!Number.isFinite(seg.end) || seg.end < seg.start - EPSILON)
      problems.push(item([...loc, "end"], "end must not be before start", seg.end));
    if (seg.end > maxEnd + EPSILON)
      problems.push(item([...loc, "end"], `end is past the media's end (${maxEnd} s)`, seg.end));
    const prev = i > 0 ? segments[i - 1]! : null;
    if (prev && seg.start < prev.start - EPSILON)
      problems.push(item([...loc, "start"], "segments must be in order of their start", seg.start));
    else if (prev && seg.start < prev.end - EPSILON && !overlapping.has(`${key(prev)}|${key(seg)}`))
      problems.push(item([...loc, "start"], `overlaps the segment before it (which ends at ${prev.end} s)`, seg.start));
    problems.push(...textProblems(seg.text, [...loc, "text"]));
    if (seg.speaker !== undefined && seg.speaker !== "")
      problems.push(...speakerProblems(seg.speaker, [...loc, "speaker"]));
    seg.words?.forEach((word, w) => {
      const wloc = [...loc, "words", w];
      if (word.start < seg.start - EPSILON || word.end > seg.end + EPSILON || word.end < word.start - EPSILON)
        problems.push(item(wloc, "a word's times must lie inside its segment, end not before start", word));
      const before = w > 0 ? seg.words![w - 1]! : null;
      if (before && word.start < before.start - EPSILON) problems.push(item(wloc, "words must be in order", word));
      problems.push(...textProblems(word.text, [...wloc, "text"]));
    });
  });
  if (tokens > MAX_INDEX_TOKENS)
    problems.push(
      item(
        at,
        `at most ${MAX_INDEX_TOKENS} words in all segments together, as search counts them (each part of a word joined by a hyphen, comma or other punctuation, and each pair of adjacent Chinese, Japanese or Korean characters, counts as one)`,
        tokens,
      ),
    );
  const speakers = new Set<string>();
  for (const seg of segments) if (seg.speaker) speakers.add(seg.speaker);
  if (speakers.size > MAX_SPEAKERS)
    problems.push(item(at, `at most ${MAX_SPEAKERS} distinct speakers in one transcript`, speakers.size));
  return problems;
}

/** What is wrong with a speaker's name (an edited segment's, or a rename's new name). */
export function speakerProblems(name: string, loc: Loc): ValidationErrorItem[] {
  const unstorable = unstorableReason(name);
  if (unstorable) return [{ type: "value_error", loc, msg: unstorable, input: name, ctx: { error: {} } }];
  if (name.trim() === "") return [item(loc, "a speaker's name must not be blank", name)];
  if (name.length > MAX_SPEAKER_CHARS)
    return [item(loc, `at most ${MAX_SPEAKER_CHARS} characters in a speaker's name`, name.length)];
  return [];
}

function textProblems(text: string, loc: Loc): ValidationErrorItem[] {
  const unstorable = unstorableReason(text);
  if (unstorable) return [{ type: "value_error", loc, msg: unstorable, input: text, ctx: { error: {} } }];
  if (text.trim() === "") return [item(loc, "text must not be empty (leave the segment out instead)", text)];
  if (text.length > MAX_SEGMENT_CHARS)
    return [item(loc, `at most ${MAX_SEGMENT_CHARS} characters per segment`, text.length)];
  return [];
}
