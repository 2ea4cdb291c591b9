import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { newestPublished } from "@/lib/publishing/newest-published";
import { EXPLORE_PAGE_SIZE, ExploreView } from "@/components/public/explore-view";

// /explore's first page, the one most visitors see (next.config.ts rewrites /explore to /explore/newest):
// rendered on the first visit and then served from Next.js's cache, with a Cache-Control a CDN can use,
// expired at once on every app process when anything is published, unpublished or deleted
// (lib/cache/public-pages.ts). A dynamic segment only so that `next build` renders nothing (no
// database at build time): "newest" is its one value. No request data is read here: ?q= and ?cursor= go to
// ../search, and the page's policy has no nonce (lib/http/security-headers.ts).

export const revalidate = 300;
export const dynamicParams = true;

export function generateStaticParams(): { list: string }[] {
  return [];
}

export const metadata: Metadata = {
  title: "Explore published transcripts",
  description: "Transcripts people have published with Verbatim, newest first.",
  alternates: { canonical: "/explore" },
};

type Props = { params: Promise<{ list: string }> };

export default async function ExploreNewestPage({ params }: Props) {
  if ((await params).list !== "newest") notFound();
  return <ExploreView q="" cursor={undefined} page={await newestPublished(EXPLORE_PAGE_SIZE)} />;
}
