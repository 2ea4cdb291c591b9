/**
 * Speaker turns of a podcast's plain-text transcript: each paragraph (or line) is read as a cue by the same
 * reader that finds `Name:` labels in SRT cues, so both follow one set of rules (see named-turns.ts).
 */
import { MAX_SPEAKERS } from "@/lib/formats/speakers";

import { namedTurns } from "./named-turns";

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
    .filter((l) => l !== "");
  const cues = namedTurns(lines.map((l) => ({ start: 0, end: 0, text: l })));
  const names = new Set<string>();
  for (const c of cues) if (c.speaker !== undefined) names.add(c.speaker);
  if (names.size === 0 || names.size > MAX_SPEAKERS) return null;
  return cues.map((c) => (c.speaker === undefined ? { text: c.text } : { speaker: c.speaker, text: c.text }));
}
