// Search inside transcripts, browser side: the History page's moments and the pieces a snippet is drawn
// with (also used by /explore on the server).
import { apiFetch } from "@/lib/client/api";
import type { SearchMoment, SearchResponse } from "@/lib/search/schemas";

export type { SearchMoment, SearchResponse };

/** Shortest query that searches what was said (one CJK character finds nothing, one Latin letter everything). */
export const MOMENT_QUERY_MIN = 2;
export const HISTORY_MOMENTS = 5;

export const momentsKey = (q: string, platform: string | null) => ["moments", q, platform ?? ""] as const;

export function fetchMoments(q: string, platform: string | null, limit = HISTORY_MOMENTS): Promise<SearchResponse> {
  const search = new URLSearchParams({ q, limit: String(limit) });
  if (platform) search.set("platform", platform);
  return apiFetch<SearchResponse>(`/v1/me/search?${search}`);
}

/** The dashboard's viewer at the moment: the player starts there and the line is shown (t: seconds, to the millisecond). */
export function viewerMomentHref(moment: Pick<SearchMoment, "transcript_id" | "start">): string {
  return `/dashboard?${new URLSearchParams({ transcript: moment.transcript_id, t: momentSeconds(moment.start) })}`;
}

/** `t` of a viewer link: the segment's own start (whole seconds would show the line before it). */
export function momentSeconds(start: number): string {
  return String(Math.max(0, Math.round(start * 1000) / 1000));
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
