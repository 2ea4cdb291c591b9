import Link from "next/link";
import { LinkPending } from "@/components/public/link-pending";
import { platformLabel } from "@/lib/browser/transcripts";
import type { IndexRow } from "@/lib/publishing/public-index";
import { CUT_SHORT, ExploreMoments } from "@/components/public/explore-moments";
import { NOTHING_IN_REACH } from "@/components/public/meaning-label";
import type { SearchMoment } from "@/lib/search/schemas";
import { SiteHeader } from "@/components/site/site-header";
import { controlClass } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button";

// The public index as a page: newest first, searchable by title, paginated by the index's keyset cursor.
// Plain links and a GET form: it works without JavaScript. app/explore (the first page, from Next.js's
// cache) and app/explore/search (a search or a later page, rendered per request) both show it.

export const EXPLORE_PAGE_SIZE = 30;

interface Props {
  q: string;
  cursor: string | undefined;
  /** null: a cursor that is not ours. */
  page: { rows: IndexRow[]; nextCursor: string | null } | null;
  /** /explore?q=: the moments where it was said (exploreMoments), shown above the titles; [] otherwise. */
  moments?: readonly SearchMoment[];
  /** Slug → the match count each moment's transcript page will show (exploreMoments). */
  counts?: ReadonlyMap<string, number>;
  /** /explore?q= that found nothing: the likeliest spelling of its unknown words (exploreMoments). */
  suggestion?: string | null;
  /** /explore?q= asked about nothing published: nothing was found by meaning (exploreMoments). */
  nothingInReach?: boolean;
  /** The search ran out of its deadline (exploreMoments' cutShort). */
  cutShort?: boolean;
}

/**
 * The note under a search that found no title: it agrees with the moments shown above it, which search found by
 * their words or by meaning (a moment by meaning need say none of the words: its line that answers is marked).
 */
function emptySearchNote(q: string, moments: readonly SearchMoment[]): string {
  if (moments.length === 0)
    return `Nothing published has “${q}” in its title, and nothing said matches it, in words or in meaning.`;
  const one = moments.length === 1;
  const byMeaning = moments.filter((m) => m.matched === "meaning").length;
  const bySome = moments.filter((m) => m.matched === "some_words").length;
  const these = one ? "the moment above is" : "the moments above are";
  const where =
    byMeaning + bySome === 0
      ? `${these} where it was said`
      : byMeaning === moments.length
        ? `${these} near it in meaning`
        : bySome === moments.length
          ? `${these} where some of its words were said`
          : "the moments above are where it was said, some of its words, or near it in meaning";
  return `No title has “${q}” in it; ${where}.`;
}

export function ExploreView({
  q,
  cursor,
  page,
  moments = [],
  counts,
  suggestion = null,
  nothingInReach = false,
  cutShort = false,
}: Props) {
  const next = page?.nextCursor
    ? `/explore?${new URLSearchParams({ ...(q ? { q } : {}), cursor: page.nextCursor })}`
    : null;

  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-10">
        <h1 className="text-2xl font-semibold tracking-tight">Published transcripts</h1>
        <form role="search" method="get" action="/explore" className="flex gap-2">
          <label htmlFor="explore-search" className="sr-only">
            Search titles and what was said
          </label>
          <input
            id="explore-search"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="Search titles and what was said"
            className={`min-w-0 flex-1 ${controlClass}`}
            data-testid="explore-search"
          />
          <button type="submit" className={buttonClass()}>
            Search
          </button>
        </form>
        {q && !cursor && <ExploreMoments q={q} results={moments} counts={counts} />}
        {q && !cursor && cutShort && (
          <p className="text-sm text-stone-700" data-testid="explore-cut-short">
            {CUT_SHORT}
          </p>
        )}
        {q && !cursor && moments.length === 0 && nothingInReach && (
          <p className="text-sm text-stone-700" data-testid="explore-nothing-in-reach">
            {NOTHING_IN_REACH}
          </p>
        )}
        {q && !cursor && suggestion && (
          <p className="text-sm text-stone-700" data-testid="explore-did-you-mean">
            Did you mean{" "}
            <Link
              href={`/explore?${new URLSearchParams({ q: suggestion })}`}
              className="font-medium text-sky-800 underline decoration-sky-800/40 hover:decoration-sky-800"
            >
              {suggestion}
            </Link>
            ?
          </p>
        )}
        {q && !cursor && moments.length > 0 && page && page.rows.length > 0 && (
          <h2 className="-mb-4 text-sm font-medium text-stone-700">Titles with “{q}”</h2>
        )}
        {!page || page.rows.length === 0 ? (
          <p className="text-stone-600" data-testid="explore-empty">
            {page
              ? q
                ? cursor
                  ? `No more titles have “${q}” in them.`
                  : emptySearchNote(q, moments)
                : "Nothing has been published yet."
              : "This page link is not valid."}{" "}
            {(cursor || q) && (
              // Underlined: a link inside a sentence is told apart by more than its colour (WCAG 1.4.1).
              <Link href="/explore" className="text-sky-700 underline hover:decoration-2" data-testid="explore-newest">
                Show the newest
              </Link>
            )}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-stone-200" data-testid="explore-list">
            {page.rows.map((row) => (
              <li key={row.id} className="flex flex-col py-3">
                <Link href={`/t/${row.slug}`} prefetch={false} className="font-medium text-sky-800 hover:underline">
                  {row.title?.trim() || "Untitled"}
                  <LinkPending />
                </Link>
                <span className="text-sm text-stone-600">
                  {platformLabel(row.platform)} · {row.publishedAt.toISOString().slice(0, 10)}
                </span>
              </li>
            ))}
          </ul>
        )}
        <nav className="flex justify-between text-sm">
          {cursor ? (
            <Link
              href={q ? `/explore?${new URLSearchParams({ q })}` : "/explore"}
              className="text-sky-700 hover:underline"
            >
              ← Newest
            </Link>
          ) : (
            <span />
          )}
          {next && (
            <Link href={next} className="text-sky-700 hover:underline" rel="next" data-testid="explore-next">
              Older →
            </Link>
          )}
        </nav>
      </main>
    </div>
  );
}
