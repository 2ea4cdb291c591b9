/**
 * SubRip. Files in the wild: CRLF, a BOM, missing or extra sequence numbers, `.` instead of `,`,
 * whitespace-only separator lines, `<i>`/`<font>` tags and ASS override codes (`{\an8}`).
 * A cue's text ends at a blank line or at a line with `-->` (then a sequence number just before that
 * line belongs to the next cue, not to this one's text).
 */
import { type Cue, type Dropped, cleanText } from "./text";
import { readCues, splitLines } from "./vtt";

const SEQUENCE = /^\s*\d+\s*$/;

export function parseSrt(body: string, dropped?: Dropped): Cue[] {
  const lines = splitLines(body);
  return readCues(
    lines,
    0,
    (l) => l.trim() === "",
    (text) => {
      const own = text.length > 1 && SEQUENCE.test(text[text.length - 1] as string) ? text.slice(0, -1) : text;
      return cleanText(own.join("\n").replace(/\{\\[^{}]*\}/g, ""));
    },
    undefined,
    undefined,
    dropped,
  );
}
