import type { Metadata } from "next";
import { listPublished } from "@/lib/publishing/public-index";
import { newestPublished } from "@/lib/publishing/newest-published";
import { RequestValidationError } from "@/lib/http/validation";
import { EXPLORE_PAGE_SIZE, ExploreView } from "@/components/public/explore-view";
import { exploreMoments } from "@/components/public/explore-moments";

// /explore?q=… and /explore?cursor=… (next.config.ts rewrites them here): a search or a later page of the
// public index, read from the database per request. Its canonical address is /explore.

export const metadata: Metadata = {
  title: "Explore published transcripts",
  description: "Transcripts people have published with Verbatim, newest first.",
};

type Props = { searchParams: Promise<{ q?: string | string[]; cursor?: string | string[] }> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export default async function ExploreSearchPage({ searchParams }: Props) {
  const params = await searchParams;
  const q = first(params.q).slice(0, 100);
  const cursor = first(params.cursor) || undefined;
  const [page, found] = await Promise.all([
    (!cursor && !q
      ? newestPublished(EXPLORE_PAGE_SIZE)
      : listPublished({ cursor, limit: EXPLORE_PAGE_SIZE, search: q })
    ).catch((error: unknown) => {
      if (error instanceof RequestValidationError) return null; // a cursor that is not ours: show the first page link
      throw error;
    }),
    q && !cursor ? exploreMoments(q) : Promise.resolve(null),
  ]);
  return (
    <ExploreView
      q={q}
      cursor={cursor}
      page={page}
      moments={found?.results}
      counts={found?.counts}
      suggestion={found?.suggestion}
      nothingInReach={found?.nothingInReach}
      cutShort={found?.cutShort}
    />
  );
}
