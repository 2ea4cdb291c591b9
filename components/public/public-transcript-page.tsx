import Link from "next/link";
import { PublicTranscript } from "@/components/public/public-transcript";
import { publicLine } from "@/lib/publishing/public-lines";
import { FORMAT_TABS, platformLabel, playerFor } from "@/lib/client/transcripts";
import { momentPrefix, videoJsonLdHead } from "@/lib/publishing/page-meta";
import type { PublicTranscript as PublicTranscriptData } from "@/lib/publishing/schemas";
import { SiteHeader } from "@/components/site/site-header";
import { buttonClass } from "@/components/ui/button";

/**
 * The body of a public transcript page (app/t/[slug]): server-rendered in full, readable with JavaScript
 * off. `query` is the search the server applies (the no-JavaScript search, /t/{slug}?q=…); the cached page
 * has none, and its client picks ?q= up from the address.
 */
export function PublicTranscriptPage({ transcript, query }: { transcript: PublicTranscriptData; query: string }) {
  const segments = transcript.segments ?? [];
  const player = transcript.video_id
    ? playerFor({
        platform: transcript.platform,
        video_id: transcript.video_id,
        source_url: transcript.source_url ?? "",
      })
    : null;
  const title = transcript.title?.trim() || "Untitled";
  const publishedOn = new Date(transcript.published_at).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });

  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-10">
        <nav className="text-sm">
          <Link href="/explore" className="text-sky-700 hover:underline">
            ← All published transcripts
          </Link>
        </nav>
        <header className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="public-title">
            {title}
          </h1>
          <p className="text-sm text-stone-600">
            {platformLabel(transcript.platform)} · {transcript.lang} · published {publishedOn}
            {transcript.source_url && (
              <>
                {" · "}
                <a
                  href={transcript.source_url}
                  className="text-sky-700 underline decoration-sky-300 hover:decoration-sky-700"
                  rel="nofollow noopener"
                  data-testid="public-source"
                >
                  Watch on {platformLabel(transcript.platform)}
                </a>
              </>
            )}
          </p>
          <p className="flex flex-wrap gap-2 text-sm" data-testid="public-downloads">
            <span className="py-1">Download:</span>
            {FORMAT_TABS.map((tab) => (
              <a
                key={tab.format}
                href={`/v1/public/${transcript.slug}/download?format=${tab.format}`}
                className={buttonClass("secondary", "md")}
                download
                rel="nofollow"
              >
                {tab.label === "Segments" ? "JSON" : tab.label} (.{tab.extension})
              </a>
            ))}
          </p>
        </header>
        <PublicTranscript
          lines={segments.map(publicLine)}
          player={player ? { ...player, title } : null}
          momentPrefix={momentPrefix(transcript)}
          initialQuery={query}
          jsonLd={videoJsonLdHead(transcript, player?.src ?? null)}
        />
      </main>
    </div>
  );
}
