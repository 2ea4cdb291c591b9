import Link from "next/link";
import { formatClock, platformLabel } from "@/lib/client/transcripts";
import { snippetParts } from "@/lib/client/search";
import { searchQuerySchema } from "@/lib/search/schemas";
import { searchPublic } from "@/lib/search/search-public";
import type { SearchMoment } from "@/lib/search/schemas";
import { momentAnchor } from "@/lib/client/moment-link";

const EXPLORE_MOMENTS = 10;

/** /explore?q=: the moments where `q` was said in published transcripts; [] for a query the search refuses. */
export async function exploreMoments(q: string): Promise<SearchMoment[]> {
  const query = searchQuerySchema.safeParse({ q, limit: String(EXPLORE_MOMENTS) });
  if (!query.success) return [];
  return (await searchPublic(query.data)).results;
}

/**
 * What was said in published transcripts (the list below it matches titles). Each moment links to its cue on
 * the public page (#t<seconds>-<segment>, the anchor the page marks and lands on below its sticky player).
 */
export function ExploreMoments({ q, results }: { q: string; results: readonly SearchMoment[] }) {
  if (results.length === 0) return null;
  const moments = results.length === 1 ? "1 moment" : `${results.length} moments`;
  return (
    <section aria-labelledby="explore-moments-title" className="flex flex-col gap-2" data-testid="explore-moments">
      <h2 id="explore-moments-title" className="text-sm font-medium text-stone-700">
        Said in published transcripts
      </h2>
      <p className="text-sm text-stone-600" data-testid="explore-moments-count">
        The best {moments} (a moment is one caption line). Every match in one transcript: its own search.
      </p>
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
              <Link
                href={`/t/${moment.slug}?${new URLSearchParams({ q })}#${momentAnchor(moment.start, moment.segment_index)}`}
                prefetch={false}
                className="text-sky-800 underline"
                rel="nofollow"
                data-testid="explore-moment-search"
              >
                Every “{q}” in this transcript
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
