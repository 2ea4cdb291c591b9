import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PublicTranscriptPage } from "@/components/transcript/public/public-transcript-page";
import { publishedForPage, showOfEpisodeForPage } from "@/lib/publishing/published-page";
import { pageMetadata } from "@/lib/publishing/page-meta";

// /t/{slug}?q=… (next.config.ts rewrites it here): the search without JavaScript, filtered by the server.
// Rendered per request; its canonical address is the cached page.

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ q?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const transcript = await publishedForPage((await params).slug);
  return transcript
    ? { ...pageMetadata(transcript), robots: { index: false } }
    : { title: "Not found", robots: { index: false } };
}

export default async function PublicTranscriptSearch({ params, searchParams }: Props) {
  const { slug } = await params;
  const transcript = await publishedForPage(slug);
  if (!transcript) notFound();
  const q = (await searchParams).q;
  return (
    <PublicTranscriptPage
      transcript={transcript}
      show={await showOfEpisodeForPage(slug)}
      query={(Array.isArray(q) ? q[0] : q)?.slice(0, 200) ?? ""}
    />
  );
}
