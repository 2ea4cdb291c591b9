import Link from "next/link";
import { LinkPending } from "@/components/public/link-pending";
import { formatClock, platformLabel } from "@/lib/browser/transcripts";
import { snippetParts } from "@/lib/browser/search";
import { searchQuerySchema } from "@/lib/search/schemas";
import { isSearchTimeout } from "@/lib/search/deadline";
import { searchPublic } from "@/lib/search/search-moments";
import { viewerMatchCounts } from "@/lib/search/viewer-counts";
import type { SearchMoment } from "@/lib/search/schemas";
import { momentAnchor } from "@/lib/browser/moment-link";
import {
  matchLabel,
  meaningLabel,
  NOTHING_CLOSE,
  nothingClose,
  SOME_WORDS_ONLY,
  someWordsOnly,
} from "@/components/public/meaning-label";

const EXPLORE_MOMENTS = 10;

export interface ExploreMomentsFound {
  results: SearchMoment[];
  /** Slug → how many matches the transcript's own page will say it has for `q` (viewer-counts.ts). */
  counts: ReadonlyMap<string, number>;
  /** When nothing was found: the likeliest spelling of the query's unknown words (did_you_mean). */
  suggestion: string | null;
  /** The question is about nothing published (nothing_close): nothing was found by meaning. */
  nothingInReach: boolean;
  /** The search ran out of its deadline: `results` are what it found in time, perhaps none. */
  cutShort: boolean;
}

/**
 * /explore?q=: the moments where `q` was said in published transcripts (none for a query the search refuses),
 * and for each of their transcripts the count its page's search will show; /s/{show}/search?q=: in that show's.
 */
export async function exploreMoments(q: string, show: string | null = null): Promise<ExploreMomentsFound> {
  const query = searchQuerySchema.safeParse({ q, limit: String(EXPLORE_MOMENTS) });
  const none = { results: [], counts: new Map(), suggestion: null, nothingInReach: false, cutShort: false };
  if (!query.success) return none;
  let found: Awaited<ReturnType<typeof searchPublic>>;
  try {
    found = await searchPublic({ ...query.data, show });
  } catch (error) {
    if (isSearchTimeout(error)) return { ...none, cutShort: true };
    throw error;
  }
  const { results, did_you_mean, nothing_close, partial } = found;
  const slugs = results.flatMap((moment) => (moment.slug ? [moment.slug] : []));
  return {
    results,
    counts: await viewerMatchCounts(slugs, q),
    suggestion: did_you_mean,
    nothingInReach: nothing_close,
    cutShort: partial,
  };
}

/** Said under the moments when the search ran out of its deadline. */
export const CUT_SHORT =
  "The search ran out of time, so what is shown here may be incomplete. Try again in a few seconds.";

/** The link to a transcript's own search, worded as that page will count: "29 matches for “q”". */
function everyMatchLabel(q: string, count: number | undefined): string {
  if (count === undefined) return `Every “${q}” in this transcript`;
  if (count === 0) return `No matches for “${q}” as typed in this transcript (this moment says a form of it)`;
  return `${count} ${count === 1 ? "match" : "matches"} for “${q}” in this transcript`;
}

/**
 * What was said in published transcripts (the list below it matches titles). Each moment links to its cue on
 * the public page (#t<seconds>-<segment>, the anchor the page marks and lands on below its sticky player).
 */
export function ExploreMoments({
  q,
  results,
  counts = new Map(),
  heading = "Said in published transcripts",
}: {
  q: string;
  results: readonly SearchMoment[];
  counts?: ReadonlyMap<string, number>;
  /** Where the moments were searched: every published transcript, or one show's. */
  heading?: string;
}) {
  if (results.length === 0) return null;
  const moments = results.length === 1 ? "1 moment" : `${results.length} moments`;
  return (
    <section aria-labelledby="explore-moments-title" className="flex flex-col gap-2" data-testid="explore-moments">
      <h2 id="explore-moments-title" className="text-sm font-medium text-stone-700">
        {heading}
      </h2>
      <p className="text-sm text-stone-600" data-testid="explore-moments-count">
        The best {moments} (a moment is one caption line). Every match in one transcript: its own search.
      </p>
      {nothingClose(results) || someWordsOnly(results) ? (
        <p className="text-sm text-stone-600" data-testid="explore-nothing-close">
          {nothingClose(results) ? NOTHING_CLOSE : SOME_WORDS_ONLY}
        </p>
      ) : null}
      <ul className="flex flex-col divide-y divide-stone-200">
        {results.map((moment) => (
          <li key={`${moment.transcript_id}-${moment.segment_index}`} className="flex flex-col gap-0.5 py-2 text-sm">
            <Link
              href={`/t/${moment.slug}#${momentAnchor(moment.start, moment.segment_index)}`}
              prefetch={false}
              className="flex gap-2 text-sky-800 hover:underline"
              data-testid="explore-moment"
            >
              <span className="font-mono tabular-nums">{formatClock(moment.start)}</span>
              <span className="font-medium">{moment.title?.trim() || "Untitled"}</span>
              <LinkPending />
            </Link>
            <span className="text-stone-700">
              {snippetParts(moment.snippet, moment.highlights).map((part, i) =>
                part.mark ? (
                  <mark key={i} className="rounded bg-amber-200 px-0.5 text-stone-900">
                    {part.text}
                  </mark>
                ) : (
                  part.text
                ),
              )}
            </span>
            <span className="flex gap-3 text-xs text-stone-600">
              {platformLabel(moment.platform)}
              <span data-testid="explore-moment-matched">{matchLabel(moment)}</span>
              {moment.matched === "meaning" || moment.matched === "some_words" ? (
                // Found by meaning or by some of the words, it need not say them all: the page opens at the moment,
                // marked, not at its own search for the whole question.
                <Link
                  href={`/t/${moment.slug}#${momentAnchor(moment.start, moment.segment_index)}`}
                  prefetch={false}
                  className="text-sky-800 underline"
                  data-testid="explore-moment-search"
                >
                  {moment.matched === "meaning"
                    ? `Near “${q}” (${meaningLabel(moment.closeness)}): this line, in its transcript`
                    : `Some of “${q}”: this line, in its transcript`}
                </Link>
              ) : (
                <Link
                  href={`/t/${moment.slug}?${new URLSearchParams({ q })}#${momentAnchor(moment.start, moment.segment_index)}`}
                  prefetch={false}
                  className="text-sky-800 underline"
                  rel="nofollow"
                  data-testid="explore-moment-search"
                >
                  {everyMatchLabel(q, moment.slug ? counts.get(moment.slug) : undefined)}
                </Link>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
