// The transcript's lines against the video's clock. Pure: the panel and its tests share it.

export interface Line {
  start: number;
  end: number;
  text: string;
}

/** The line being said at `seconds`: the last one started by then, or -1 before the first (lines sorted by start). */
export function lineAt(lines: readonly Line[], seconds: number): number {
  if (!Number.isFinite(seconds)) return -1;
  let low = 0;
  let high = lines.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (lines[middle].start <= seconds) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The lines worth showing: text with something in it, in the order of their start. */
export function shownLines(segments: readonly Line[]): Line[] {
  return segments
    .filter((segment) => segment.text.trim() !== "" && Number.isFinite(segment.start))
    .map((segment) => ({ start: segment.start, end: segment.end, text: segment.text.trim() }))
    .sort((a, b) => a.start - b.start);
}
