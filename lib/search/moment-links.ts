import type { SearchMoment } from "@/lib/search/schemas";

// Where a moment of a search answer opens: the dashboard's viewer at that line. The server writes these links
// into answers and the browser follows them, so the one shape lives here.

/** The dashboard's viewer at the moment: the player starts there and the line is shown (t: seconds, to the millisecond). */
export function viewerMomentHref(moment: Pick<SearchMoment, "transcript_id" | "start">): string {
  return `/dashboard?${new URLSearchParams({ transcript: moment.transcript_id, t: momentSeconds(moment.start) })}`;
}

/** `t` of a viewer link: the segment's own start (whole seconds would show the line before it). */
export function momentSeconds(start: number): string {
  return String(Math.max(0, Math.round(start * 1000) / 1000));
}
