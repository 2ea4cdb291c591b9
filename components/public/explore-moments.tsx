import Link from "next/link";
import { formatClock, platformLabel } from "@/lib/client/transcripts";
import { snippetParts } from "@/lib/client/search";
import { searchQuerySchema } from "@/lib/search/schemas";
import { searchPublic } from "@/lib/search/search-public";

const EXPLORE_MOMENTS = 10;

/** /explore?q=: what was said in published transcripts (the list below it matches titles). Rendered per request. */
export async function ExploreMoments({ q }: { q: string }) {
  const query = searchQuerySchema.safeParse({ q, limit: String(EXPLORE_MOMENTS) });
  if (!query.success) return null;
  const { results } = await searchPublic(query.data);
  if (results.length === 0) return null;
  return (
    <section aria-labelledby="explore-moments-title" className="flex flex-col gap-2" data-testid="explore-moments">
      <h2 id="explore-moments-title" className="text-sm font-medium text-stone-700">
        Said in published transcripts
      </h2>
      <ul className="flex flex-col divide-y divide-stone-200">
        {results.map((moment) => (
          <li key={`${moment.transcript_id}-${moment.segment_index}`} className="flex flex-col gap-0.5 py-2 text-sm">
            <Link
              href={`/t/${moment.slug}#t${Math.floor(moment.start)}-${moment.segment_index}`}
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
            <span className="text-xs text-stone-500">{platformLabel(moment.platform)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
