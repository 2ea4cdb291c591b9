import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { exploreMoments } from "@/components/public/explore-moments";
import { ShowView } from "@/components/public/show-view";
import { findShow } from "@/lib/publishing/show-page";

// /s/{slug}?q=… (next.config.ts rewrites it here): the show's page with the moments where `q` was said in its
// published episodes (the public search with `show`), rendered per request; the show's page itself (app/s/[slug])
// stays cached.

export const metadata: Metadata = { title: "Search a show", robots: { index: false } };

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ q?: string | string[] }> };

export default async function ShowSearchRoute({ params, searchParams }: Props) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  const show = await findShow(slug);
  if (!show) notFound();
  const q = ((Array.isArray(query.q) ? query.q[0] : query.q) ?? "").slice(0, 100).trim();
  const found = q ? await exploreMoments(q, show.slug) : null;
  return (
    <ShowView
      show={show}
      q={q}
      moments={found?.results}
      counts={found?.counts}
      suggestion={found?.suggestion}
      nothingInReach={found?.nothingInReach}
      cutShort={found?.cutShort}
    />
  );
}
