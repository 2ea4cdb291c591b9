"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { formatClock, platformLabel } from "@/lib/client/transcripts";
import {
  fetchMoments,
  MOMENT_QUERY_MIN,
  momentsKey,
  snippetParts,
  viewerMomentHref,
  type SearchMoment,
} from "@/lib/client/search";
import { focusRing } from "@/components/ui/focus";

/**
 * What was said: the History search box's text searched inside the transcripts (GET /v1/me/search), shown
 * above the list (which matches titles and video ids). Each moment opens the viewer there (?t=).
 */
export function HistoryMoments({ q, platform }: { q: string; platform: string | null }) {
  const query = q.trim();
  const moments = useQuery({
    queryKey: momentsKey(query, platform),
    queryFn: () => fetchMoments(query, platform),
    enabled: [...query].length >= MOMENT_QUERY_MIN,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  if ([...query].length < MOMENT_QUERY_MIN || moments.isPending || moments.isError) return null;
  const results = moments.data.results;
  // Nothing said: the list below (titles and video ids) is the answer.
  if (results.length === 0) return null;
  return (
    <section aria-labelledby="history-moments-title" className="flex flex-col gap-2" data-testid="history-moments">
      <h2 id="history-moments-title" className="text-sm font-medium text-stone-700">
        Said in your transcripts
      </h2>
      <ul
        className={`flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white text-sm ${moments.isPlaceholderData ? "opacity-60" : ""}`}
      >
        {results.map((moment) => (
          <li key={`${moment.transcript_id}-${moment.segment_index}`}>
            <Link
              href={viewerMomentHref(moment)}
              className={`flex flex-col gap-0.5 px-4 py-2 hover:bg-stone-50 ${focusRing}`}
              data-testid="history-moment"
            >
              <span className="flex gap-2 text-xs text-stone-600">
                <span className="font-mono tabular-nums">{formatClock(moment.start)}</span>
                <span className="truncate font-medium text-stone-800">{moment.title || moment.video_id}</span>
                <span>{platformLabel(moment.platform)}</span>
              </span>
              <Snippet moment={moment} />
            </Link>
          </li>
        ))}
      </ul>
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
