import { env } from "@/lib/env";
import { deepLinkPrefix } from "@/lib/formats/markdown";
import { viewerMomentHref } from "@/lib/search/moment-links";
import { hasCjk } from "@/lib/search/cjk";
import { isUpload, publicPageUrl } from "@/lib/publishing/serializers";
import type { MomentRow } from "@/lib/search/find-moments";
import { MARK_END, MARK_START, type SearchScope } from "@/lib/search/search-statement";
import {
  encodeCursor,
  SEARCH_MAX_OFFSET,
  type SearchMoment,
  type SearchQuery,
  type SearchResponse,
} from "@/lib/search/schemas";

const SNIPPET_CHARS = 300;
/** Characters of the passage kept before the first match when the snippet is cut. */
const SNIPPET_LEAD = 90;
/**
 * The most of a passage `context.text` holds: passages are ~200 characters of whole segments, so only one
 * holding a giant segment (a recogniser's answer in one piece) is cut, around its first match.
 */
export const CONTEXT_CHARS = 1_000;
const CONTEXT_LEAD = 300;

type Range = [number, number];

/** The passage's text without the marks, and where the marks were. */
export function unmark(marked: string): { text: string; ranges: Range[] } {
  let text = "";
  const ranges: Range[] = [];
  let open: number | null = null;
  for (const char of marked) {
    if (char === MARK_START) open = text.length;
    else if (char === MARK_END) {
      if (open !== null && text.length > open) ranges.push([open, text.length]);
      open = null;
    } else text += char;
  }
  return { text, ranges };
}

/** Where each of `needles` occurs in `text` (CJK runs: the index matched their bigrams, so they are there as typed). */
export function occurrences(text: string, needles: string[]): Range[] {
  const ranges: Range[] = [];
  for (const needle of needles) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
      ranges.push([at, at + needle.length]);
  }
  return ranges;
}

/** Sorted, overlapping ranges joined. */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Range[] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** The passage cut to SNIPPET_CHARS around its first match, on word boundaries where there are any, with the ranges moved along. */
export function cutSnippet(text: string, ranges: Range[]): { snippet: string; highlights: Range[] } {
  return cutAround(text, ranges, SNIPPET_CHARS, SNIPPET_LEAD);
}

/**
 * `text` cut to about `size` characters (at most size + 2 with the "…" marks) around its first range,
 * `lead` of them before it, on word boundaries where there are any, with the ranges moved along.
 */
export function cutAround(
  text: string,
  ranges: Range[],
  size: number,
  lead: number,
): { snippet: string; highlights: Range[] } {
  if (text.length <= size) return { snippet: text, highlights: ranges };
  const first = ranges[0]?.[0] ?? 0;
  let from = Math.max(0, Math.min(first - lead, text.length - size));
  if (from > 0) {
    const space = text.indexOf(" ", from);
    if (space !== -1 && space < first && space - from < 30) from = space + 1;
  }
  let to = Math.min(text.length, from + size);
  if (to < text.length) {
    const space = text.lastIndexOf(" ", to);
    if (space > from && to - space < 30) to = space;
  }
  const mark = from > 0 ? "…" : "";
  const snippet = `${mark}${text.slice(from, to).trim()}${to < text.length ? "…" : ""}`;
  const shift = mark.length - from - (text.slice(from, to).length - text.slice(from, to).trimStart().length);
  const highlights = ranges
    .filter(([start, end]) => start >= from && end <= to)
    .map(([start, end]): Range => [start + shift, end + shift])
    .filter(([start, end]) => start >= 0 && end <= snippet.length);
  return { snippet, highlights };
}

/** Where line `i` of a passage is in its text (lines joined by one space). */
export function lineRange(texts: readonly string[], i: number): Range[] {
  if (i < 0 || i >= texts.length || texts[i]!.length === 0) return [];
  let from = 0;
  for (let j = 0; j < i; j++) from += texts[j]!.length + 1;
  return [[from, from + texts[i]!.length]];
}

/** The index (within the passage) of the segment that holds text offset `at`: segments are joined by one space. */
function segmentAt(texts: string[], at: number): number {
  let offset = 0;
  for (let i = 0; i < texts.length; i++) {
    offset += texts[i]!.length + 1;
    if (at < offset) return i;
  }
  return Math.max(0, texts.length - 1);
}

export function serializeMoment(row: MomentRow, scope: SearchScope, cjkNeedles: string[]): SearchMoment {
  const joined = row.texts.join(" ");
  const unmarked = unmark(row.marked ?? "");
  // ts_headline gives the text back as it was; should it ever not, its marks cannot be placed.
  const text = joined;
  // CJK matches are the needles' occurrences: ts_headline sees a whole CJK run as one word, which it marks
  // only when the run happens to equal one of the query's bigrams.
  const headlineRanges =
    unmarked.text === joined ? unmarked.ranges.filter(([a, b]) => !hasCjk(joined.slice(a, b))) : [];
  const wordRanges = mergeRanges([...headlineRanges, ...occurrences(joined, cjkNeedles)]);
  // A moment found by meaning alone: its line that answers is the match, marked and linked.
  const ranges =
    wordRanges.length === 0 && row.answerLine !== undefined ? lineRange(row.texts, row.answerLine) : wordRanges;
  const inPassage = ranges.length > 0 ? segmentAt(row.texts, ranges[0]![0]) : 0;
  const start = Number(row.starts[inPassage] ?? row.start);
  const end = Number(row.ends[inPassage] ?? row.end);
  const segmentIndex = row.segFrom + inPassage;
  const { snippet, highlights } = cutSnippet(text, ranges);
  const hidden = scope.kind === "public" && isUpload(row);
  const second = Math.floor(start);
  const prefix = hidden ? null : deepLinkPrefix(row.platform, row.videoId);
  return {
    transcript_id: row.transcriptId,
    title: row.title,
    platform: row.platform,
    video_id: hidden ? null : row.videoId,
    lang: row.lang,
    source_url: hidden ? null : row.sourceUrl,
    start,
    end,
    segment_index: segmentIndex,
    context: {
      start: Number(row.start),
      end: Number(row.end),
      text: cutAround(text, ranges, CONTEXT_CHARS, CONTEXT_LEAD).snippet,
    },
    snippet,
    highlights,
    links: {
      source: prefix ? `${prefix}${second}s` : null,
      viewer:
        scope.kind === "library"
          ? new URL(viewerMomentHref({ transcript_id: row.transcriptId, start }), env().APP_URL).toString()
          : null,
      page: row.slug ? `${publicPageUrl(row.slug)}#t${second}-${segmentIndex}` : null,
    },
    slug: row.slug,
    rank: Number(row.rank),
    matched: row.matched ?? "words",
    closeness: row.closeness ?? null,
  };
}

/** The answer: `limit` moments and the cursor of the next page (findMoments reads one row more to know there is one). */
export function serializeSearch(
  rows: MomentRow[],
  scope: SearchScope,
  query: SearchQuery,
  offset: number,
  cjkNeedles: string[],
): SearchResponse {
  const page = rows.slice(0, query.limit);
  const next = offset + query.limit;
  return {
    results: page.map((row) => serializeMoment(row, scope, cjkNeedles)),
    next_cursor: rows.length > query.limit && next <= SEARCH_MAX_OFFSET ? encodeCursor(next) : null,
    did_you_mean: null,
    nothing_close: false,
    partial: false,
  };
}
