"use client";

import {
  matchLabel,
  NOTHING_CLOSE,
  NOTHING_IN_REACH,
  nothingClose,
  SOME_WORDS_ONLY,
  someWordsOnly,
} from "@/components/public/meaning-label";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { formatClock, platformLabel } from "@/lib/browser/transcripts";
import {
  fetchMoments,
  MOMENT_QUERY_MIN,
  momentsKey,
  snippetParts,
  viewerFindHref,
  viewerMomentHref,
  type SearchMoment,
} from "@/lib/browser/search";
import { focusRing } from "@/components/ui/focus";
import { ExportNotesButton } from "@/components/dashboard/history/export-notes-button";

/**
 * What was said: the History search box's text searched inside the transcripts (GET /v1/me/search). The list
 * below matches titles, channels and video ids; these are the moments, null while there is nothing to show.
 */
export function useHistoryMoments(q: string, platform: string | null) {
  const query = q.trim();
  const searched = [...query].length >= MOMENT_QUERY_MIN;
  const moments = useQuery({
    queryKey: momentsKey(query, platform),
    queryFn: () => fetchMoments(query, platform),
    enabled: searched,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const results = searched && moments.data && moments.data.results.length > 0 ? moments.data.results : null;
  // Given only when nothing holds every word: no moment, or moments of some of the words.
  const suggestion = searched && moments.data ? moments.data.did_you_mean : null;
  const nothingInReach = Boolean(searched && moments.data && !results && moments.data.nothing_close);
  return { query, platform, results, suggestion, nothingInReach, stale: moments.isPlaceholderData };
}

/** The moments grouped by transcript (in the order their best moment came): each opens the viewer there (?t=). */
function byTranscript(results: readonly SearchMoment[]): SearchMoment[][] {
  const groups = new Map<string, SearchMoment[]>();
  for (const moment of results) {
    const group = groups.get(moment.transcript_id);
    if (group) group.push(moment);
    else groups.set(moment.transcript_id, [moment]);
  }
  return [...groups.values()];
}

export function HistoryMoments({
  query,
  platform,
  results,
  suggestion,
  nothingInReach,
  stale,
  onSuggest,
}: {
  query: string;
  /** The History filter's platform, which the search was narrowed to. */
  platform: string | null;
  results: readonly SearchMoment[] | null;
  suggestion: string | null;
  /** The question is about nothing in the library (the search's nothing_close). */
  nothingInReach: boolean;
  stale: boolean;
  /** Searches the suggestion instead. */
  onSuggest: (q: string) => void;
}) {
  // Nothing said: the list below (titles, channels and video ids) is the answer, and a likelier spelling if any.
  if (!results && nothingInReach)
    return (
      <p className="text-sm text-stone-700" data-testid="history-nothing-in-reach">
        {NOTHING_IN_REACH}
      </p>
    );
  const didYouMean = suggestion ? (
    <p className="text-sm text-stone-700" data-testid="history-did-you-mean">
      {results ? "Nothing said holds every word. " : "Nothing said matches. "}Did you mean{" "}
      <button
        type="button"
        onClick={() => onSuggest(suggestion)}
        className={`rounded font-medium text-sky-700 underline decoration-sky-700/40 hover:decoration-sky-700 max-sm:min-h-11 ${focusRing}`}
      >
        {suggestion}
      </button>
      ?
    </p>
  ) : null;
  if (!results) return didYouMean;
  return (
    <section aria-labelledby="history-moments-title" className="flex flex-col gap-2" data-testid="history-moments">
      <h2 id="history-moments-title" className="text-sm font-medium text-stone-700">
        Said in your transcripts
      </h2>
      {didYouMean}
      {nothingClose(results) || someWordsOnly(results) ? (
        <p className="text-sm text-stone-600" data-testid="history-nothing-close">
          {nothingClose(results) ? NOTHING_CLOSE : SOME_WORDS_ONLY}
        </p>
      ) : null}
      <ul className={`flex flex-col gap-2 ${stale ? "opacity-60" : ""}`}>
        {byTranscript(results).map((group) => {
          const first = group[0];
          const title = first.title || first.video_id || "Untitled";
          return (
            <li
              key={first.transcript_id}
              className="rounded-lg border border-stone-200 bg-white text-sm"
              data-testid="history-moment-group"
            >
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-stone-100 px-4 py-2">
                <span className="min-w-0 truncate font-medium text-stone-800">{title}</span>
                <span className="text-xs text-stone-600">{platformLabel(first.platform)}</span>
                <Link
                  href={viewerFindHref(first.transcript_id, query)}
                  className={`ml-auto rounded text-xs text-sky-700 underline decoration-sky-700/40 hover:decoration-sky-700 max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${focusRing}`}
                  data-testid="history-moments-all"
                >
                  Every match in this transcript
                  <span className="sr-only">: {title}</span>
                </Link>
              </div>
              <ul className="flex flex-col divide-y divide-stone-100">
                {group.map((moment) => (
                  <li key={moment.segment_index}>
                    <Link
                      href={viewerMomentHref(moment)}
                      className={`flex gap-3 px-4 py-2 hover:bg-stone-50 ${focusRing}`}
                      data-testid="history-moment"
                    >
                      <span className="shrink-0 pt-px font-mono text-xs text-stone-600 tabular-nums">
                        {formatClock(moment.start)}
                      </span>
                      <Snippet moment={moment} />
                      <span
                        className={`ml-auto shrink-0 self-start rounded px-1.5 text-xs ${moment.matched === "words" ? "bg-stone-100 text-stone-700" : "bg-sky-50 text-sky-800"}`}
                        data-testid={moment.matched === "meaning" ? "history-moment-meaning" : "history-moment-matched"}
                      >
                        {matchLabel(moment)}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
      <ExportNotesButton
        selection={{ search: { q: query, platform } }}
        label="Export these transcripts as notes (.zip)"
        testId="moments-export-notes"
      />
    </section>
  );
}

export function Snippet({ moment }: { moment: Pick<SearchMoment, "snippet" | "highlights"> }) {
  return (
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
  );
}
