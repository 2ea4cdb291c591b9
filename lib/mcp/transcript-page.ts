import { z } from "zod";

import { renderMarkdown, renderSrt, renderVtt, type Format, type Segment } from "@/lib/formats";
import { clock } from "@/lib/mcp/render";
import { RequestValidationError } from "@/lib/http/validation";
import { segmentSchema, transcriptSchema, type TranscriptResponse } from "@/lib/transcripts/schemas";

// A transcript for a model, once and in pages: the text (content) carries the transcript, the structured
// answer only what it is and which part this is. An hour of captions is ~60,000 characters, more than an
// assistant should take in one answer, so a page holds at most `max_characters` of transcript text and
// says how to ask for the next one (by segment index or by time).

/** Characters of transcript per answer unless the caller asks otherwise (~10,000 tokens). */
export const DEFAULT_PAGE_CHARACTERS = 40_000;
export const MIN_PAGE_CHARACTERS = 2_000;
export const MAX_PAGE_CHARACTERS = 100_000;

export const pageInput = {
  from_segment: z
    .int()
    .min(0)
    .optional()
    .describe("First segment to return (0-based); next_from_segment of the previous answer continues it"),
  from_seconds: z
    .number()
    .min(0)
    .optional()
    .describe("Start at the segment playing at this time (seconds), instead of from_segment"),
  to_seconds: z
    .number()
    .positive()
    .optional()
    .describe("Stop before the segments that start at or after this time (seconds)"),
  from_character: z
    .int()
    .min(0)
    .optional()
    .describe(
      "Characters of the first segment's text to skip: next_from_character of the previous answer, which ended inside a segment longer than a page",
    ),
  max_characters: z
    .int()
    .min(MIN_PAGE_CHARACTERS)
    .max(MAX_PAGE_CHARACTERS)
    .optional()
    .describe(`Most transcript characters in this answer (default ${DEFAULT_PAGE_CHARACTERS})`),
  words: z
    .boolean()
    .optional()
    .describe(
      "Also return this part's segments in structuredContent.page.segments, each with its words' own times (words: [{start, end, text}]) " +
        "where the source times each word (automatic captions, speech recognition). The words count toward max_characters, so a part holds fewer segments",
    ),
};

export interface PageRequest {
  from_segment?: number;
  from_seconds?: number;
  to_seconds?: number;
  from_character?: number;
  max_characters?: number;
  /** Return the part's segments with their words (structured), counting the words' JSON toward the budget. */
  words?: boolean;
}

export const transcriptInfoSchema = transcriptSchema.omit({ content: true, segments: true, format: true });

export const pageSchema = z.object({
  format: z
    .enum(["json", "text", "srt", "vtt", "md"])
    .describe("how the text content renders the segments: json and text as [hh:mm:ss] lines"),
  from_segment: z.int().describe("first segment in this answer (0-based)"),
  to_segment: z.int().describe("one past the last segment in this answer"),
  total_segments: z.int(),
  from_seconds: z.number(),
  to_seconds: z.number(),
  characters: z
    .int()
    .describe("transcript characters in this answer (with words: true, the JSON of page.segments counted too)"),
  total_characters: z.int().describe("transcript characters of the whole transcript (counted as characters is)"),
  next_from_segment: z
    .int()
    .nullable()
    .describe("pass as from_segment for the next part; null at the end (or at to_seconds)"),
  next_from_character: z
    .int()
    .nullable()
    .describe("pass as from_character with next_from_segment when this part ended inside a segment; else null"),
  segments: z
    .array(segmentSchema)
    .optional()
    .describe("with words: true, this part's segments, each with its words' own times where the source has them"),
});

export type TranscriptPage = z.infer<typeof pageSchema>;

const line = (segment: Segment) => `[${clock(segment.start)}] ${segment.text}`;

/**
 * The characters a segment costs in a page: its line, and with `words` also its JSON in
 * page.segments, words included, so the structured part stays within the budget too.
 */
function cost(segment: Segment, words: boolean): number {
  return line(segment).length + 1 + (words ? JSON.stringify(segment).length + 1 : 0);
}

/**
 * The segments a page holds: from the requested start, up to to_seconds, within the character budget. A
 * segment longer than the whole budget is cut: the page holds as much of it as fits, and the next one goes
 * on inside it (from_character).
 */
function select(
  segments: readonly Segment[],
  request: PageRequest,
): { part: Segment[]; from: number; to: number; characters: number; nextCharacter: number | null } {
  const budget = request.max_characters ?? DEFAULT_PAGE_CHARACTERS;
  const words = request.words === true;
  let from = Math.min(request.from_segment ?? 0, segments.length);
  let skip = request.from_character ?? 0;
  if (request.from_seconds !== undefined) {
    const at = segments.findIndex((s) => s.end > request.from_seconds!);
    from = at < 0 ? segments.length : at;
    skip = 0;
  }
  const part: Segment[] = [];
  let to = from;
  let characters = 0;
  while (to < segments.length) {
    const whole = segments[to]!;
    if (request.to_seconds !== undefined && whole.start >= request.to_seconds) break;
    // A segment read from inside (from_character) has no words: which of them the rest holds is not known.
    const segment = to === from && skip > 0 ? textOnly({ ...whole, text: whole.text.slice(skip) }) : whole;
    const size = cost(segment, words);
    if (characters + size > budget) {
      if (part.length > 0) break;
      // Alone it is over the budget: as much of its text as fits (without its words), and where the next page goes on.
      // With words the text is there twice (the line and page.segments' JSON): half as much fits.
      const plain = textOnly(segment);
      const copies = words ? 2 : 1;
      let room = Math.max(1, Math.floor((budget - (cost(plain, words) - copies * plain.text.length)) / copies));
      if (/[\uD800-\uDBFF]/.test(plain.text[room - 1] ?? "")) room = Math.max(1, room - 1); // not half a pair
      part.push({ ...plain, text: plain.text.slice(0, room) });
      characters += cost(part[0]!, words);
      return { part, from, to, characters, nextCharacter: skip + room };
    }
    part.push(segment);
    characters += size;
    to++;
  }
  return { part, from, to, characters, nextCharacter: null };
}

function textOnly({ start, end, text }: Segment): Segment {
  return { start, end, text };
}

function body(format: Format, part: Segment[], transcript: TranscriptResponse): string {
  switch (format) {
    case "srt":
      return renderSrt(part);
    case "vtt":
      return renderVtt(part);
    case "md":
      return renderMarkdown(part, {
        title: transcript.title,
        sourceUrl: transcript.source_url,
        platform: transcript.platform,
        videoId: transcript.video_id,
        lang: transcript.lang,
        chapters: transcript.chapters,
      });
    default:
      return part.map(line).join("\n");
  }
}

/**
 * One page of a transcript (fetched as json, with its segments) as a model reads it: a short header
 * (which the Markdown format brings itself), where this part lies in the whole, the segments rendered in
 * `format`, and how to get the next part.
 */
export function transcriptPage(transcript: TranscriptResponse, format: Format, request: PageRequest, tool: string) {
  const segments = transcript.segments ?? [];
  // Past the end is a mistake the model should hear about, not an empty page it might read as "nothing said".
  if (request.from_segment !== undefined && request.from_segment > 0 && request.from_segment >= segments.length) {
    throw new RequestValidationError([
      {
        type: "less_than",
        loc: ["body", "from_segment"],
        msg: `must be less than total_segments (${segments.length}); the last segment is ${Math.max(segments.length - 1, 0)}`,
        input: request.from_segment,
        ctx: { lt: segments.length },
      },
    ]);
  }
  const { part, from, to, characters, nextCharacter } = select(segments, request);
  const total = segments.reduce((n, s) => n + cost(s, request.words === true), 0);
  const endOfRange =
    nextCharacter === null &&
    (to >= segments.length || (request.to_seconds !== undefined && segments[to]!.start >= request.to_seconds));
  const page: TranscriptPage = {
    format,
    from_segment: from,
    to_segment: to,
    total_segments: segments.length,
    from_seconds: part[0]?.start ?? 0,
    to_seconds: part.at(-1)?.end ?? 0,
    characters,
    total_characters: total,
    next_from_segment: endOfRange ? null : to,
    next_from_character: nextCharacter,
    ...(request.words === true ? { segments: part } : {}),
  };
  const header =
    format === "md"
      ? []
      : [
          `# ${transcript.title ?? transcript.video_id}`,
          `Source: ${transcript.source_url}`,
          `Language: ${transcript.lang} (${transcript.source === "asr" ? "speech recognition" : `${transcript.caption_kind ?? "platform"} captions`})`,
          `Duration: ${clock(transcript.duration_seconds)}`,
          ...(transcript.channel ? [`Channel: ${transcript.channel}`] : []),
          ...(transcript.chapters.length > 0 && from === 0
            ? [`Chapters: ${transcript.chapters.map((c) => `[${clock(c.start)}] ${c.title}`).join("; ")}`]
            : []),
        ];
  const whole = from === 0 && to === segments.length && !request.from_character;
  const last = nextCharacter === null ? Math.max(from, to - 1) : to;
  const where = whole
    ? `The whole transcript: ${segments.length} segments, ${total.toLocaleString("en")} characters.`
    : `Segments ${from}–${last}${nextCharacter === null ? "" : ` (cut at character ${nextCharacter} of ${segments[to]!.text.length})`} of ${segments.length} (${clock(page.from_seconds)}–${clock(page.to_seconds)} of ${clock(transcript.duration_seconds)}; ${characters.toLocaleString("en")} of ${total.toLocaleString("en")} characters).`;
  const more =
    page.next_from_segment === null
      ? null
      : nextCharacter !== null
        ? `More: call ${tool} again with the same arguments, from_segment=${to} and from_character=${nextCharacter}.`
        : `More: call ${tool} again with the same arguments and from_segment=${page.next_from_segment} (or from_seconds=${Math.floor(segments[to]!.start)}).`;
  const text = [[...header, where].join("\n"), body(format, part, transcript).trimEnd(), ...(more ? [more] : [])].join(
    "\n\n",
  );
  const { content: _content, segments: _segments, format: _format, ...info } = transcript;
  return { text, page, info };
}
