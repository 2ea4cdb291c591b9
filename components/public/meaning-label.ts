import type { SearchMoment } from "@/lib/search/schemas";

/** How close a moment found by meaning is, in words (the search's `closeness`). */
export function meaningLabel(closeness: SearchMoment["closeness"]): string {
  return closeness === "close"
    ? "close in meaning"
    : closeness === "related"
      ? "related in meaning"
      : "loosely related";
}

/** Whether every moment was found by meaning alone and none is more than loosely related: nothing close. */
export function nothingClose(moments: readonly Pick<SearchMoment, "matched" | "closeness">[]): boolean {
  return moments.length > 0 && moments.every((m) => m.matched === "meaning" && m.closeness === "loose");
}

export const NOTHING_CLOSE = "Nothing said is close to it in meaning; these moments are only loosely related.";

/** For a question about nothing in reach (the search's `nothing_close`): what was searched says nothing near it. */
export const NOTHING_IN_REACH = "Nothing said here is close to it in meaning.";
