import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ShowView } from "@/components/public/show-view";
import { env } from "@/lib/env";
import { showFeedPath, showPagePath } from "@/lib/publishing/show-links";
import { findShow } from "@/lib/publishing/show-page";

// A followed show's page, rendered on the first visit and then served from Next.js's cache like /t/{slug}:
// publishing, unpublishing and deleting an episode expire every show page (lib/cache/public-pages.ts); the
// timed revalidation catches the rest (a renamed show, a follow deleted). No request data is read here.

export const revalidate = 300;
export const dynamicParams = true;

export function generateStaticParams(): { slug: string }[] {
  return [];
}

type Props = { params: Promise<{ slug: string }> };

const showForPage = cache(findShow);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const show = await showForPage((await params).slug);
  if (!show) return { title: "Not found", robots: { index: false } };
  const url = new URL(showPagePath(show.slug), env().APP_URL).toString();
  const description = `Transcripts of ${show.episodes.length === 1 ? "1 episode" : `${show.episodes.length} episodes`} of ${show.title}.`;
  return {
    title: show.title,
    description,
    alternates: {
      canonical: url,
      types: { "application/rss+xml": [{ url: showFeedPath(show.slug), title: `${show.title} (with transcripts)` }] },
    },
    openGraph: { type: "website", title: show.title, description, url, siteName: "Verbatim" },
  };
}

export default async function ShowRoute({ params }: Props) {
  const show = await showForPage((await params).slug);
  if (!show) notFound();
  return <ShowView show={show} />;
}
