import type { Metadata } from "next";
import Link from "next/link";
import { platformLabel } from "@/lib/client/transcripts";
import { listPublished } from "@/lib/publishing/public-index";
import { newestPublished } from "@/lib/publishing/newest-published";
import { RequestValidationError } from "@/lib/http/validation";
import { ExploreMoments } from "@/components/public/explore-moments";

// The public index as a page: newest first, searchable by title, paginated by the index's keyset cursor.
// Plain links and a GET form: it works without JavaScript.

export const metadata: Metadata = {
  title: "Explore published transcripts",
  description: "Transcripts people have published with Verbatim, newest first.",
};

const PAGE_SIZE = 30;

type Props = { searchParams: Promise<{ q?: string | string[]; cursor?: string | string[] }> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export default async function ExplorePage({ searchParams }: Props) {
  const params = await searchParams;
  const q = first(params.q).slice(0, 100);
  const cursor = first(params.cursor) || undefined;
  // The first page comes from the cache; searches and later pages read the database.
  const page = await (!cursor && !q ? newestPublished(PAGE_SIZE) : listPublished({ cursor, limit: PAGE_SIZE, search: q })).catch((error: unknown) => {
    if (error instanceof RequestValidationError) return null; // a cursor that is not ours: show the first page link
    throw error;
  });
  const next = page?.nextCursor ? `/explore?${new URLSearchParams({ ...(q ? { q } : {}), cursor: page.nextCursor })}` : null;

  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-6 py-10">
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
          className="min-w-0 flex-1 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm"
          data-testid="explore-search"
        />
        <button type="submit" className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100">
          Search
        </button>
      </form>
      {q && !cursor && <ExploreMoments q={q} />}
      {!page || page.rows.length === 0 ? (
        <p className="text-stone-600" data-testid="explore-empty">
          {page ? (q ? `No published transcript has “${q}” in its title.` : "Nothing has been published yet.") : "This page link is not valid."}{" "}
          {(cursor || q) && (
            <Link href="/explore" className="text-sky-700 hover:underline">
              Show the newest
            </Link>
          )}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-200" data-testid="explore-list">
          {page.rows.map((row) => (
            <li key={row.id} className="flex flex-col py-3">
              <Link href={`/t/${row.slug}`} className="font-medium text-sky-800 hover:underline">
                {row.title?.trim() || "Untitled"}
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
          <Link href={q ? `/explore?${new URLSearchParams({ q })}` : "/explore"} className="text-sky-700 hover:underline">
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
  );
}
