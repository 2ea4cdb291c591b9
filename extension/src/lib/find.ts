// Find in the transcript: where a query occurs in each line (case- and accent-blind), and a line cut into
// the pieces the panel renders, the matches marked.

export interface Match {
  line: number;
  from: number;
  to: number;
}

export interface Piece {
  text: string;
  /** The match's index among all of the transcript's matches, for a marked piece; null for plain text. */
  match: number | null;
}

// Folding must keep the length of the text, so that an offset in the folded text is one in the original.
function fold(text: string): string {
  let out = "";
  for (const char of text) {
    const base = char
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase();
    out += base.length === char.length ? base : char.toLowerCase().length === char.length ? char.toLowerCase() : char;
  }
  return out;
}

/** Every occurrence of `query` in `lines`, in reading order (none for a blank query). */
export function findMatches(lines: readonly { text: string }[], query: string): Match[] {
  const needle = fold(query.trim());
  if (needle === "") return [];
  const matches: Match[] = [];
  lines.forEach((line, index) => {
    const hay = fold(line.text);
    for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length))
      matches.push({ line: index, from: at, to: at + needle.length });
  });
  return matches;
}

/** Line `line`'s text cut at its matches (`matches` from findMatches over the same lines). */
export function markLine(text: string, line: number, matches: readonly Match[]): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  matches.forEach((match, index) => {
    if (match.line !== line) return;
    if (match.from > at) pieces.push({ text: text.slice(at, match.from), match: null });
    pieces.push({ text: text.slice(match.from, match.to), match: index });
    at = match.to;
  });
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), match: null });
  return pieces;
}
