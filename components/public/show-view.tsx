import Link from "next/link";
import { CUT_SHORT, ExploreMoments } from "@/components/public/explore-moments";
import { NOTHING_IN_REACH } from "@/components/public/meaning-label";
import { LinkPending } from "@/components/public/link-pending";
import { SiteHeader } from "@/components/site/site-header";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import type { Show } from "@/lib/publishing/show-page";
import { showFeedPath, showPagePath } from "@/lib/publishing/show-links";
import type { SearchMoment } from "@/lib/search/schemas";
import { formatDate } from "@/lib/browser/dates";

// A followed show's page (app/s/[slug]): its name, its published episodes newest first, each linking to its
// transcript, its feed, and a search inside the show (/s/{slug}?q=, rendered per request by app/s/[slug]/search:
// the moments where it was said, above the episodes). Plain links and a GET form: it works without JavaScript; the page itself is served from
// Next.js's cache, so nothing here reads the request.

function duration(seconds: number): string | null {
  if (seconds <= 0) return null;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function ShowView({
  show,
  q = "",
  moments,
  counts,
  suggestion = null,
  nothingInReach = false,
  cutShort = false,
}: {
  show: Show;
  /** A search inside the show: what was asked and the moments found (app/s/[slug]/search). */
  q?: string;
  moments?: readonly SearchMoment[];
  counts?: ReadonlyMap<string, number>;
  /** When nothing was found: the likeliest spelling of the query's unknown words in this show (did_you_mean). */
  suggestion?: string | null;
  /** The question is about nothing this show says (nothing_close): nothing was found by meaning. */
  nothingInReach?: boolean;
  /** The search ran out of its deadline (exploreMoments' cutShort). */
  cutShort?: boolean;
}) {
  const count = show.episodes.length;
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <div className="flex flex-col gap-2">
          <p className="text-sm text-stone-600">Show</p>
          <h1 className="text-2xl font-semibold tracking-tight break-words" data-testid="show-title">
            {show.title}
          </h1>
          <p className="text-sm text-stone-600">
            {count === 1 ? "1 transcribed episode" : `${count} transcribed episodes`} ·{" "}
            <a
              href={showFeedPath(show.slug)}
              className="text-sky-700 underline hover:decoration-2"
              data-testid="show-feed"
            >
              Podcast feed with transcripts
            </a>
          </p>
        </div>
        <form role="search" method="get" action={showPagePath(show.slug)} className="flex gap-2">
          <label htmlFor="show-search" className="sr-only">
            Search what was said in this show
          </label>
          <input
            id="show-search"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="Search what was said in this show"
            className={`min-w-0 flex-1 ${controlClass}`}
            data-testid="show-search"
          />
          <button type="submit" className={buttonClass()}>
            Search
          </button>
        </form>
        {q && moments && <ExploreMoments q={q} results={moments} counts={counts} heading="Said in this show" />}
        {q && moments?.length === 0 && (
          <p className="text-stone-600" data-testid="show-search-empty">
            Nothing said in this show&apos;s published episodes matches “{q}”.
          </p>
        )}
        {q && cutShort && (
          <p className="text-sm text-stone-700" data-testid="show-cut-short">
            {CUT_SHORT}
          </p>
        )}
        {q && moments?.length === 0 && nothingInReach && (
          <p className="text-sm text-stone-700" data-testid="show-nothing-in-reach">
            {NOTHING_IN_REACH}
          </p>
        )}
        {q && suggestion && (
          <p className="text-sm text-stone-700" data-testid="show-did-you-mean">
            Did you mean{" "}
            <Link
              href={`${showPagePath(show.slug)}?${new URLSearchParams({ q: suggestion })}`}
              prefetch={false}
              className="font-medium text-sky-800 underline decoration-sky-800/40 hover:decoration-sky-800"
            >
              {suggestion}
            </Link>
            ?
          </p>
        )}
        <ol className="flex flex-col divide-y divide-stone-200" data-testid="show-episodes">
          {show.episodes.map((episode) => (
            <li key={episode.slug} className="flex flex-col gap-0.5 py-3">
              <Link
                href={`/t/${episode.slug}`}
                prefetch={false}
                className="font-medium break-words text-sky-800 hover:underline"
              >
                {episode.title}
                <LinkPending />
              </Link>
              <span className="text-sm text-stone-600">
                <time dateTime={episode.date.toISOString()}>{formatDate(episode.date)}</time>
                {duration(episode.durationSeconds) && ` · ${duration(episode.durationSeconds)}`}
              </span>
            </li>
          ))}
        </ol>
      </main>
    </div>
  );
}
