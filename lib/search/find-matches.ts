// What the find box of a transcript finds, as one rule for the browser (the viewer's find, its counts) and the
// server (a public page's own count of a search's matches, lib/search/viewer-counts.ts).

export interface SearchMatch {
  /** Index of the segment. */
  segment: number;
  /** UTF-16 offsets into the segment's text. */
  from: number;
  to: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Every occurrence of `query` (trimmed, case-insensitive, runs of spaces matching any whitespace) in
 * the segments' texts, in reading order. An empty query finds nothing.
 */
export function findMatches(segments: readonly { text: string }[], query: string): SearchMatch[] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const pattern = new RegExp(words.map(escapeRegExp).join("\\s+"), "giu");
  const matches: SearchMatch[] = [];
  segments.forEach((segment, index) => {
    for (const found of segment.text.matchAll(pattern)) {
      matches.push({ segment: index, from: found.index, to: found.index + found[0].length });
    }
  });
  return matches;
}
