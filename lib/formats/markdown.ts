import { cleanText, normalizeCues, totalTextLength, type NormalizedCues } from "./normalize";
import { paragraphStarts, type ParagraphRules } from "./paragraphs";
import { formatShortClock } from "./time";
import type { MomentLink, Segment, TranscriptMeta } from "./types";
import { Utf16Writer, textEscaping, writeText } from "./writer";

/** Paragraphs of ~30–60 s: break at a sentence end after 30 s, always by 60 s, and on pauses > 2 s. */
export const MARKDOWN_PARAGRAPHS: ParagraphRules = { minSeconds: 30, maxSeconds: 60, pauseSeconds: 2 };

/**
 * Characters with inline meaning in CommonMark/GFM: escapes, code, emphasis, links/images,
 * HTML/autolinks, tables, strikethrough, entity references and ATX closing sequences.
 * Line-start constructs (lists, quotes, headings, setext underlines) can't occur: text never starts
 * a line (paragraphs begin with the timestamp and normalized text has no newlines).
 */
const MD_SPECIAL_CHARS = "\\`*_[]<>|~&#";
const MD_SPECIAL_CLASS = "[" + MD_SPECIAL_CHARS.replace(/[\\\]\[^-]/g, "\\$&") + "]";
const MD_SPECIAL = new RegExp(MD_SPECIAL_CLASS);
const MD_SPECIAL_ALL = new RegExp(MD_SPECIAL_CLASS, "g");
const MD_TEXT = textEscaping(Object.fromEntries([...MD_SPECIAL_CHARS].map((ch) => [ch, "\\" + ch])));

/** Backslash-escapes Markdown-significant characters so text renders literally. */
export function escapeMarkdown(text: string): string {
  return MD_SPECIAL.test(text) ? text.replace(MD_SPECIAL_ALL, "\\$&") : text;
}

/** Characters that would end or break a link destination: whitespace, controls, `<`, `>`, parentheses, backslash. */
const URL_UNSAFE = /[\s\u0000-\u001f\u007f<>()\\]/g;
/** An `&` that would be read as an entity reference (`&amp;`, `&#38;`...). */
const URL_ENTITY = /&(?=#?[0-9A-Za-z]+;)/g;

/** Makes an http(s) URL safe as a Markdown link destination; null for anything else (e.g. `javascript:`). */
export function markdownUrl(url: string): string | null {
  const trimmed = typeof url === "string" ? url.trim() : "";
  if (!/^https?:\/\/[^\s/]/i.test(trimmed)) return null;
  return trimmed
    .replace(URL_UNSAFE, (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"))
    .replace(URL_ENTITY, "\\&");
}

/**
 * Builds the deep-link prefix for the platform, to which `<seconds>s` is appended, or null when
 * the platform has no time deep links.
 */
export function deepLinkPrefix(platform: string, videoId: string): string | null {
  const id = typeof videoId === "string" ? videoId.trim() : "";
  if (id === "") return null;
  switch ((platform ?? "").trim().toLowerCase()) {
    case "youtube":
      return "https://www.youtube.com/watch?v=" + encodeURIComponent(id) + "&t=";
    case "vimeo":
      return "https://vimeo.com/" + encodeURIComponent(id) + "#t=";
    default:
      return null;
  }
}

/**
 * Where each chapter begins: cue index → the chapter titles that start there (the first cue at or after
 * the chapter's start). Chapters after the last cue have no text and are left out.
 */
export function chapterHeadings(cues: NormalizedCues, chapters: TranscriptMeta["chapters"]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (!chapters || chapters.length === 0) return out;
  const sorted = [...chapters]
    .filter((c) => Number.isFinite(c.start) && cleanText(c.title) !== "")
    .sort((a, b) => a.start - b.start);
  let i = 0;
  for (const chapter of sorted) {
    const ms = Math.round(chapter.start * 1000);
    while (i < cues.count && cues.startMs[i] < ms) i++;
    if (i >= cues.count) break;
    const list = out.get(i) ?? [];
    list.push(cleanText(chapter.title));
    out.set(i, list);
  }
  return out;
}

/**
 * Markdown: `# Title` (or "Transcript"), a source link line, then one paragraph per ~30–60 s,
 * each starting with a `[mm:ss]`/`[h:mm:ss]` timestamp that links to that moment on YouTube or
 * Vimeo (plain text elsewhere; `meta.momentLink` chooses another link or none). Chapters become `## Title`
 * headings, each opening a new paragraph.
 * Transcript text is Markdown-escaped. Where the source names speakers, a change of speaker starts a
 * paragraph, its name in bold after the timestamp (`**Sarah:** `). Trailing newline.
 */
export function renderMarkdown(segments: readonly Segment[], meta: TranscriptMeta): string {
  const cues = normalizeCues(segments);
  const title = cleanText(meta.title);
  const header: string[] = ["# " + (title === "" ? "Transcript" : escapeMarkdown(title))];

  const source = cleanText(meta.sourceUrl);
  if (source !== "") {
    const href = markdownUrl(source);
    header.push(
      href === null ? "Source: " + escapeMarkdown(source) : "Source: [" + escapeMarkdown(source) + "](" + href + ")",
    );
  }
  const head = header.join("\n\n");

  const deepLink = deepLinkPrefix(meta.platform, meta.videoId);
  const link: MomentLink | null =
    meta.momentLink === undefined ? (deepLink === null ? null : { prefix: deepLink, suffix: "s" }) : meta.momentLink;
  const headings = chapterHeadings(cues, meta.chapters);
  let starts = paragraphStarts(cues, MARKDOWN_PARAGRAPHS);
  let headingChars = 0;
  if (headings.size > 0) {
    starts = [...new Set([...starts, ...headings.keys()])].sort((a, b) => a - b);
    for (const titles of headings.values()) for (const t of titles) headingChars += 2 * t.length + 8;
  }
  const capacity =
    head.length +
    headingChars +
    2 * totalTextLength(cues) +
    cues.count +
    starts.length * (8 + (link === null ? 0 : link.prefix.length + link.suffix.length) + 32);
  return Utf16Writer.build(capacity, (w) => {
    w.reserve(head.length);
    w.raw(head);
    writeParagraphs(w, cues, starts, link, headings);
    w.reserve(1);
    w.buf[w.pos++] = 10;
  });
}

function writeParagraphs(
  w: Utf16Writer,
  cues: NormalizedCues,
  starts: number[],
  link: MomentLink | null,
  headings: Map<number, string[]>,
): void {
  const { count, startMs, text } = cues;
  let next = 0; // index into starts of the next paragraph
  for (let i = 0; i < count; i++) {
    if (next < starts.length && starts[next] === i) {
      next++;
      for (const title of headings.get(i) ?? []) {
        w.reserve(6);
        w.raw("\n\n## ");
        writeText(w, title, MD_TEXT);
      }
      const seconds = Math.floor(startMs[i] / 1000);
      const clock = formatShortClock(seconds);
      const stamp =
        link === null ? "\n\n[" + clock + "] " : "\n\n[" + clock + "](" + link.prefix + seconds + link.suffix + ") ";
      w.reserve(stamp.length);
      w.raw(stamp);
      const who = cues.speaker[i];
      if (who !== undefined && (i === 0 || cues.speaker[i - 1] !== who)) {
        w.reserve(2);
        w.raw("**");
        writeText(w, who, MD_TEXT);
        w.reserve(4);
        w.raw(":** ");
      }
    } else {
      w.reserve(1);
      w.buf[w.pos++] = 32;
    }
    writeText(w, text[i], MD_TEXT);
  }
}
