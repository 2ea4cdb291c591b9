import { parse } from "csv-parse/sync";
import { MAX_SOURCE_URL_LENGTH, parseSourceUrl, SUPPORTED_PLATFORMS_SENTENCE, type ParseOptions } from "@/lib/sources";

/** One line of a list: a link to transcribe (`queued`), or one that will not be, with the reason (`skipped`). */
export interface ListedItem {
  /** The line's number in the list (1 = first), as a person counts lines in an editor. */
  line: number;
  /** The link as found on the line (trimmed), or the line itself when it holds none. */
  url: string;
  status: "queued" | "skipped";
  note: string | null;
}

export interface ParsedList {
  items: ListedItem[];
  /** Lines that name a link (well-formed or not); blank lines, `#` comments and a CSV's header row are not counted. */
  links: number;
}

const LINE_BREAK = /\r\n|\n|\r/;
const CELL_DELIMITERS = [",", ";", "\t"];
/** A cell that may be a link: a scheme, or a host with a dot and a path or query (`youtu.be/…`). */
const LINKISH = /^(?:[a-z][a-z0-9+.-]*:\/\/|[^\s/]+\.[^\s/]+[/?])/i;
const SHOWN_LINE = 200;
/** Longer lines are noted as they are, without looking for cells in them (bounded work per line). */
const MAX_LINE = 8192;

/**
 * The links of a pasted list or a TXT/CSV file, one item per line: the whole line when it is one token, else the
 * first cell of the line (a CSV row, comma, semicolon or tab) that looks like a link. Each is recognised as POST
 * /v1/transcript recognises a link; one that is not, and a link already listed (the same video, however it was
 * written), stays in the list as `skipped` with a note, so a person can find and fix the line. Work is linear in
 * the text and stops once more than `maxLinks` links are seen (the caller refuses the list then).
 */
export function parseLinkList(
  text: string,
  maxLinks: number,
  options: ParseOptions & { header?: boolean } = {},
): ParsedList {
  const lines = text.replace(/^\uFEFF/, "").split(LINE_BREAK);
  const items: ListedItem[] = [];
  const firstLineOf = new Map<string, number>();
  let links = 0;
  let header = options.header ?? true;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const candidate = line.length > MAX_LINE ? line : linkOnLine(line);
    // A CSV's first row names its columns: a first line that names no link is taken for that.
    if (candidate === null && header) {
      header = false;
      continue;
    }
    header = false;
    links += 1;
    if (links > maxLinks) break;
    const number = index + 1;
    const url = candidate ?? line;
    const note = candidate === null ? "No link on this line." : refusal(candidate, options);
    if (note) {
      items.push({ line: number, url: shown(url), status: "skipped", note });
      continue;
    }
    const key = sameVideoKey(candidate!, options);
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      items.push({ line: number, url: shown(url), status: "skipped", note: `The same link as line ${first}.` });
      continue;
    }
    firstLineOf.set(key, number);
    items.push({ line: number, url, status: "queued", note: null });
  }
  return { items, links };
}

/** The line's link: the line itself when it has no space or delimiter, else the first link-like cell of it. */
function linkOnLine(line: string): string | null {
  if (!/[\s,;]/.test(line)) return LINKISH.test(line) || line.includes(".") ? line : null;
  for (const delimiter of CELL_DELIMITERS) {
    if (!line.includes(delimiter)) continue;
    const cells = cellsOf(line, delimiter);
    const found = cells.find((cell) => LINKISH.test(cell));
    if (found) return found;
  }
  const word = line.split(/\s+/).find((token) => LINKISH.test(token));
  return word ?? null;
}

function cellsOf(line: string, delimiter: string): string[] {
  try {
    const rows = parse(line, { delimiter, relax_quotes: true, relax_column_count: true, trim: true }) as string[][];
    return rows[0] ?? [];
  } catch {
    return line.split(delimiter).map((cell) => cell.trim());
  }
}

/** Why a link cannot be transcribed, or null when it can. */
function refusal(link: string, options: ParseOptions): string | null {
  if (link.length > MAX_SOURCE_URL_LENGTH) return `The link is longer than ${MAX_SOURCE_URL_LENGTH} characters.`;
  if (parseSourceUrl(link, options)) return null;
  return `Not a link Verbatim can transcribe. ${SUPPORTED_PLATFORMS_SENTENCE}`;
}

/** Two ways of writing one video (youtu.be and youtube.com/watch, a tracking parameter) are one item. */
function sameVideoKey(link: string, options: ParseOptions): string {
  const source = parseSourceUrl(link, options)!;
  return source.needsResolve ? source.canonicalUrl : `${source.platform}:${source.videoId}`;
}

function shown(text: string): string {
  return text.length > SHOWN_LINE ? `${text.slice(0, SHOWN_LINE)}…` : text;
}
