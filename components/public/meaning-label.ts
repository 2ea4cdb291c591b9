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

/** How a moment matched, in words, for every moment a page shows (the search's `matched` and `closeness`). */
export function matchLabel(moment: Pick<SearchMoment, "matched" | "closeness">): string {
  const near = moment.closeness ? meaningLabel(moment.closeness) : null;
  if (moment.matched === "meaning") return near ?? "by meaning";
  const said = moment.matched === "some_words" ? "says some of the words" : "says the words";
  return near ? `${said}, ${near}` : said;
}

/** Whether every moment holds only some of the words: nothing holds them all, nothing is near in meaning. */
export function someWordsOnly(moments: readonly Pick<SearchMoment, "matched" | "closeness">[]): boolean {
  return moments.length > 0 && moments.every((m) => m.matched === "some_words" && m.closeness === null);
}

/** Said above moments that each hold only some of the question's words. */
export const SOME_WORDS_ONLY =
  "Nothing said here holds every word of it or is close to it in meaning; these moments say some of its words.";
