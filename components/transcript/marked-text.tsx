import { splitByMatches, type SearchMatch } from "@/lib/browser/transcript-view";

/**
 * A segment's text with the search's matches marked: each mark carries its index among all matches
 * (`data-match`, what stepping scrolls to) and the current one `data-current`. `markClass`, where the view is
 * not styled through one class: a mark's classes, by whether it is the current one.
 */
export function MarkedText({
  text,
  index,
  matches,
  currentMatch = -1,
  markClass,
}: {
  text: string;
  index: number;
  matches: readonly SearchMatch[];
  currentMatch?: number;
  markClass?: (current: boolean) => string;
}) {
  return splitByMatches(text, index, matches).map((part, at) =>
    part.match === null ? (
      part.text
    ) : (
      <mark
        key={at}
        data-match={part.match}
        data-current={part.match === currentMatch || undefined}
        className={markClass?.(part.match === currentMatch)}
      >
        {part.text}
      </mark>
    ),
  );
}
