/**
 * One word with its own time, where the source gives one (docs/decisions/0006-word-times-where-the-source-measured-them.md).
 * Times are in seconds (floats).
 */
export interface Word {
  start: number;
  end: number;
  text: string;
}

/** One timed piece of transcript text. Times are in seconds (floats). */
export interface Segment {
  start: number;
  end: number;
  text: string;
  /** The segment's words with their own times, in order; absent where the source has none. */
  words?: Word[];
  /** Who speaks, where the source names them. */
  speaker?: string;
}

/** Transcript metadata used by the headers of the human-readable formats. */
export interface TranscriptMeta {
  title: string | null;
  sourceUrl: string;
  platform: string;
  videoId: string;
  lang: string;
  /** Chapters ({start: seconds, title}), shown as headings by the Markdown format. */
  chapters?: readonly { start: number; title: string }[] | null;
  /**
   * Where a paragraph's timestamp links: `prefix + seconds + suffix`, or null for plain timestamps. Absent: the
   * platform's own deep link where it has one (deepLinkPrefix in markdown.ts).
   */
  momentLink?: MomentLink | null;
}

/** A link to a moment: whole seconds go between `prefix` and `suffix` (`…watch?v=ID&t=` and `s`). */
export interface MomentLink {
  prefix: string;
  suffix: string;
}

export const FORMATS = ["json", "text", "srt", "vtt", "md"] as const;

export type Format = (typeof FORMATS)[number];

const FORMAT_TOKENS: ReadonlyMap<string, Format> = new Map<string, Format>([
  ["json", "json"],
  ["text", "text"],
  ["txt", "text"],
  ["srt", "srt"],
  ["vtt", "vtt"],
  ["md", "md"],
  ["markdown", "md"],
]);

/** Every token parseFormat accepts: the formats and their aliases (the CLI's --format choices). */
export const FORMAT_TOKEN_NAMES: readonly string[] = [...FORMAT_TOKENS.keys()];

/**
 * Parses a user-supplied format token (query parameter, CLI flag, file extension...).
 * Case-insensitive and trimmed; accepts the aliases `txt` (text) and `markdown` (md).
 * Returns null for anything else.
 */
export function parseFormat(token: string): Format | null {
  if (typeof token !== "string") return null;
  return FORMAT_TOKENS.get(token.trim().toLowerCase()) ?? null;
}
