import type { SearchMoment } from "@/lib/search/schemas";

/** How close a moment found by meaning is, in words (the search's `closeness`). */
export function meaningLabel(closeness: SearchMoment["closeness"]): string {
  return closeness === "close"
    ? "close in meaning"
    : closeness === "related"
      ? "related in meaning"
      : "loosely related";
}
