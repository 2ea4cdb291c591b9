import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PublicTranscriptPage } from "@/components/transcript/public/public-transcript-page";
import { publishedForPage, showOfEpisodeForPage } from "@/lib/publishing/published-page";
import { pageMetadata } from "@/lib/publishing/page-meta";

// A published transcript, server-rendered once and then served from Next.js's cache (incremental static
// regeneration, rendered on the first visit: no slug is known at build time). Publishing, unpublishing and
// deleting expire it at once (lib/cache/public-pages.ts), on every app process; the timed
// revalidation only catches a transcript refreshed in place. No request data is read here: ?q= goes to
// ./search (next.config.ts rewrites), and the page's policy has no nonce (lib/http/security-headers.ts).

export const revalidate = 300;
export const dynamicParams = true;

export function generateStaticParams(): { slug: string }[] {
  return [];
}

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const transcript = await publishedForPage((await params).slug);
  return transcript ? pageMetadata(transcript) : { title: "Not found", robots: { index: false } };
}

export default async function PublicTranscriptRoute({ params }: Props) {
  const { slug } = await params;
  const transcript = await publishedForPage(slug);
  if (!transcript) notFound();
  return <PublicTranscriptPage transcript={transcript} show={await showOfEpisodeForPage(slug)} query="" />;
}
