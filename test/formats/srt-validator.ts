/**
 * Strict SubRip validator (test helper). Checks, and returns one message per problem found:
 * - `\n` line endings only (no `\r`), no BOM, a trailing newline after the last cue;
 * - blocks separated by exactly one blank line (no leading, doubled or trailing blank lines);
 * - each block: a sequence number (1, 2, 3, ... with no gaps), a timing line
 *   `HH:MM:SS,mmm --> HH:MM:SS,mmm` (hours ≥ 2 digits, minutes/seconds 00–59, 3-digit ms),
 *   then at least one non-blank text line, none containing `-->`;
 * - start <= end, and end <= start of the next cue (no overlap), starts non-decreasing.
 * An empty string is a valid (empty) file.
 */

const INDEX_LINE = /^[1-9][0-9]*$/;
const TIMING_LINE =
  /^([0-9]{2,}):([0-5][0-9]):([0-5][0-9]),([0-9]{3}) --> ([0-9]{2,}):([0-5][0-9]):([0-5][0-9]),([0-9]{3})$/;

export interface SrtCue {
  index: number;
  startMs: number;
  endMs: number;
  lines: string[];
}

function ms(h: string, m: string, s: string, f: string): number {
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);
}

/** Parses as much as it can; `errors` lists every violation (empty array = valid). */
export function parseSrtStrict(text: string): { cues: SrtCue[]; errors: string[] } {
  const errors: string[] = [];
  const cues: SrtCue[] = [];
  if (text === "") return { cues, errors };
  if (text.includes("\r")) errors.push("contains a carriage return (expected \\n line endings only)");
  if (text.charCodeAt(0) === 0xfeff) errors.push("starts with a byte order mark");
  if (!text.endsWith("\n")) errors.push("missing trailing newline");
  else if (text.endsWith("\n\n")) errors.push("trailing blank line(s) at end of file");

  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lines = body.split("\n");
  let pos = 0;
  let expected = 1;
  while (pos < lines.length) {
    const blockLine = pos + 1;
    if (lines[pos] === "") {
      errors.push(`line ${blockLine}: unexpected blank line (blocks must be separated by exactly one blank line)`);
      pos++;
      continue;
    }
    // sequence number
    const indexText = lines[pos];
    if (!INDEX_LINE.test(indexText)) {
      errors.push(`line ${blockLine}: expected cue number ${expected}, got ${JSON.stringify(indexText)}`);
    } else if (Number(indexText) !== expected) {
      errors.push(`line ${blockLine}: cue number ${indexText} out of sequence (expected ${expected})`);
    }
    pos++;
    // timing
    const timing = lines[pos];
    let startMs = NaN;
    let endMs = NaN;
    const m = timing === undefined ? null : TIMING_LINE.exec(timing);
    if (m === null) {
      errors.push(`line ${pos + 1}: bad timing line ${JSON.stringify(timing ?? "<end of file>")}`);
    } else {
      startMs = ms(m[1], m[2], m[3], m[4]);
      endMs = ms(m[5], m[6], m[7], m[8]);
      if (endMs < startMs) errors.push(`line ${pos + 1}: cue ${expected} ends before it starts`);
    }
    pos++;
    // text
    const textLines: string[] = [];
    while (pos < lines.length && lines[pos] !== "") {
      const line = lines[pos];
      if (line.trim() === "") errors.push(`line ${pos + 1}: whitespace-only text line in cue ${expected}`);
      if (line.includes("-->")) errors.push(`line ${pos + 1}: text of cue ${expected} contains "-->"`);
      textLines.push(line);
      pos++;
    }
    if (textLines.length === 0) errors.push(`line ${blockLine}: cue ${expected} has no text`);
    cues.push({ index: expected, startMs, endMs, lines: textLines });
    expected++;
    if (pos < lines.length) {
      pos++; // the single separating blank line
      if (pos >= lines.length) errors.push(`line ${pos}: blank line after the last cue`);
    }
  }

  for (let i = 0; i + 1 < cues.length; i++) {
    const a = cues[i];
    const b = cues[i + 1];
    if (Number.isNaN(a.endMs) || Number.isNaN(b.startMs)) continue;
    if (b.startMs < a.startMs) errors.push(`cue ${b.index} starts before cue ${a.index}`);
    if (a.endMs > b.startMs) errors.push(`cue ${a.index} overlaps cue ${b.index} (ends after it starts)`);
  }
  return { cues, errors };
}

/** Returns the list of strict-SRT violations in `text` (empty = valid). */
export function validateSrt(text: string): string[] {
  return parseSrtStrict(text).errors;
}
