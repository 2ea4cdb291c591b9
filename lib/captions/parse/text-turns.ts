/**
 * Speaker turns of a podcast's plain-text transcript: each paragraph (or line) is read as a cue by the same
 * reader that finds `Name:` labels in SRT cues, so both follow one set of rules (see named-turns.ts).
 *
 * Many such files are Markdown (the Changelog's: `**Jerod Santo:** So we're here…`): a label in emphasis,
 * `**Name:**`, `**Name**:`, `__Name:__` or `*Name:*`, is read as `Name:`, and backslash escapes (`\[laughs\]`)
 * lose their backslash. A heading is no one's words and ends the turn before it: `## Intro`, a line that
 * is all emphasis (`**Sponsors**`), or an emphasised label that names no person (`**Break:** \[00:19:40.26\]`).
 */
import { MAX_SPEAKERS } from "@/lib/formats/speakers";

import { isLabelName, namedTurns } from "./named-turns";

/** The most characters of a text transcript that are read; the rest is left out. */
export const MAX_TEXT_CHARS = 2_000_000;

export interface TextTurn {
  speaker?: string;
  text: string;
}

/** The text's paragraphs with their speakers; null when it names no one or more than MAX_SPEAKERS people. */
export function textTurns(text: string): TextTurn[] | null {
  const lines = text
    .slice(0, MAX_TEXT_CHARS)
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map(markdownLine);
  const breaks = new Set<number>();
  lines.forEach((l, i) => {
    if (l.heading) breaks.add(i);
  });
  const cues = namedTurns(
    lines.map((l) => ({ start: 0, end: 0, text: l.text })),
    undefined,
    breaks,
  );
  const names = new Set<string>();
  for (const c of cues) if (c.speaker !== undefined) names.add(c.speaker);
  if (names.size === 0 || names.size > MAX_SPEAKERS) return null;
  return cues.map((c) => (c.speaker === undefined ? { text: c.text } : { speaker: c.speaker, text: c.text }));
}

/** `**Name:** text` and its kin; group 2 the name, 3 or 4 the colon (inside or after the emphasis). */
const EMPHASISED_LABEL = /^(\*\*|__|\*|_)([^*_\s][^*_]{0,59}?)\s*(:?)\1(:?)(?:\s+|$)/u;
const HEADING = /^#{1,6}\s/u;
const ALL_EMPHASIS = /^(\*\*|__)[^*_]+\1$/u;
const ESCAPE = /\\([\\`*_{}[\]()#+\-.!|])/gu;

/** One line of a Markdown (or plain) text transcript, as namedTurns reads it. */
function markdownLine(line: string): { text: string; heading: boolean } {
  if (HEADING.test(line)) return { text: unescape(line.replace(HEADING, "")), heading: true };
  if (ALL_EMPHASIS.test(line)) return { text: unescape(line.slice(2, -2)).trim(), heading: true };
  const m = EMPHASISED_LABEL.exec(line);
  if (m && (m[3] === ":") !== (m[4] === ":")) {
    const name = m[2]!.trim();
    const rest = unescape(line.slice(m[0].length));
    if (!isLabelName(name)) return { text: `${name}: ${rest}`.trim(), heading: true };
    return { text: rest === "" ? `${name}:` : `${name}: ${rest}`, heading: false };
  }
  return { text: unescape(line), heading: false };
}

function unescape(text: string): string {
  return text.replace(ESCAPE, "$1");
}
