// Search inside transcripts, browser side: the History page's moments and the pieces a snippet is drawn
// with (also used by /explore on the server).
import { apiFetch } from "@/lib/browser/api";
import { momentSeconds, viewerMomentHref } from "@/lib/search/moment-links";
import type { SearchMoment, SearchResponse } from "@/lib/search/schemas";

export type { SearchMoment, SearchResponse };
export { momentSeconds, viewerMomentHref };

/** Shortest query that searches what was said (one CJK character finds nothing, one Latin letter everything). */
export const MOMENT_QUERY_MIN = 2;
export const HISTORY_MOMENTS = 5;

export const momentsKey = (q: string, platform: string | null) => ["moments", q, platform ?? ""] as const;

export function fetchMoments(q: string, platform: string | null, limit = HISTORY_MOMENTS): Promise<SearchResponse> {
  // The box is searched as it is typed: its last word may be begun.
  const search = new URLSearchParams({ q, limit: String(limit), prefix: "true" });
  if (platform) search.set("platform", platform);
  return apiFetch<SearchResponse>(`/v1/me/search?${search}`);
}

/**
 * What the viewer's find box looks for, given a search of what was said: the words to find, without the
 * search's operators (quotes, -excluded words; of `a OR b`, the first alternative). The box finds text as
 * written, the search finds stemmed words, so this is the nearest literal form; "" where nothing is left.
 */
export function findTextOf(q: string): string {
  const firstAlternative = q.split(/\s+OR\s+/)[0] ?? "";
  const kept = firstAlternative.replace(/(^|\s)-("[^"]*"?|\S*)/g, " ").replace(/"/g, " ");
  return kept.trim().split(/\s+/).filter(Boolean).join(" ");
}

/** The dashboard's viewer with its find box holding `q`'s words: every moment of that transcript, one after another. */
export function viewerFindHref(transcriptId: string, q: string): string {
  const find = findTextOf(q);
  const search = new URLSearchParams({ transcript: transcriptId });
  if (find) search.set("find", find);
  return `/dashboard?${search}`;
}

/** `find` of the viewer's address: the find box's first text (bounded like the search box), or "". */
export function parseFindText(value: string | null | undefined): string {
  return (value ?? "").trim().slice(0, 200);
}

/** The snippet cut at its highlights: the parts to draw, each marked or not. */
export function snippetParts(snippet: string, highlights: [number, number][]): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at || end > snippet.length) continue;
    if (start > at) parts.push({ text: snippet.slice(at, start), mark: false });
    parts.push({ text: snippet.slice(start, end), mark: true });
    at = end;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), mark: false });
  return parts;
}

/** `?t=` of the viewer's address: seconds (up to milliseconds), or null. */
export function parseMomentSeconds(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,6}(\.\d{1,3})?$/.test(value)) return null;
  return Number(value);
}
