import Link from "next/link";
import { PublicTranscript } from "@/components/transcript/public/public-transcript";
import { publicLine } from "@/lib/publishing/public-lines";
import { episodeAudio, FORMAT_TABS, platformLabel, playerFor } from "@/lib/browser/transcripts";
import { jsonLdHead, momentPrefix } from "@/lib/publishing/page-meta";
import type { PublicTranscript as PublicTranscriptData } from "@/lib/publishing/schemas";
import { showPagePath } from "@/lib/publishing/show-links";
import type { EpisodeShow } from "@/lib/publishing/show-page";
import { SiteHeader } from "@/components/site/site-header";
import { focusRing } from "@/components/ui/focus";
import { formatDate } from "@/lib/browser/dates";

const downloadLink = `inline-flex items-center justify-center rounded px-1.5 py-0.5 font-mono text-sky-700 underline decoration-sky-300 hover:decoration-sky-700 max-sm:min-h-11 max-sm:min-w-11 ${focusRing}`;

/**
 * The body of a public transcript page (app/t/[slug]): server-rendered in full, readable with JavaScript
 * off. `query` is the search the server applies (the no-JavaScript search, /t/{slug}?q=…); the cached page
 * has none, and its client picks ?q= up from the address. `show`: the followed show this episode is on, whose
 * page the breadcrumb leads back to.
 */
export function PublicTranscriptPage({
  transcript,
  show,
  query,
}: {
  transcript: PublicTranscriptData;
  show: EpisodeShow | null;
  query: string;
}) {
  const segments = transcript.segments ?? [];
  const player = transcript.video_id
    ? playerFor({
        platform: transcript.platform,
        video_id: transcript.video_id,
        source_url: transcript.source_url ?? "",
      })
    : null;
  const audio = episodeAudio(transcript);
  const title = transcript.title?.trim() || "Untitled";
  // An episode of a followed show is dated as its feed dates it, as the show's page lists it.
  const released = show?.episodeDate ?? null;

  return (
    <div className="min-h-screen">
      <SiteHeader />
      {/* Wide screens: the player beside the text (components/transcript/public/public-transcript.tsx), as the dashboard has it. */}
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-4 sm:gap-5 sm:px-6 sm:py-8 lg:max-w-5xl">
        {show ? (
          // One line on a phone too: a long show name is cut short, not wrapped (its page names it in full).
          <nav aria-label="Breadcrumb" className="text-sm">
            <ol className="flex min-w-0 items-baseline gap-1.5">
              <li className="shrink-0">
                <Link href="/explore" className="text-sky-700 hover:underline">
                  Published transcripts
                </Link>
              </li>
              <li className="flex min-w-0 items-baseline gap-1.5">
                <span aria-hidden="true" className="text-stone-500">
                  /
                </span>
                <Link
                  href={showPagePath(show.slug)}
                  className="truncate text-sky-700 hover:underline"
                  data-testid="public-show"
                >
                  <span className="sr-only">Show: </span>
                  {show.title}
                </Link>
              </li>
            </ol>
          </nav>
        ) : (
          <nav className="text-sm">
            <Link href="/explore" className="text-sky-700 hover:underline">
              ← All published transcripts
            </Link>
          </nav>
        )}
        <header className="flex flex-col gap-1.5 sm:gap-2">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl" data-testid="public-title">
            {title}
          </h1>
          <p className="text-sm text-stone-600">
            {platformLabel(transcript.platform)} · {transcript.lang} ·{" "}
            {released ? (
              <>
                released <time dateTime={released.toISOString()}>{formatDate(released)}</time>
              </>
            ) : (
              <>
                published <time dateTime={transcript.published_at}>{formatDate(transcript.published_at)}</time>
              </>
            )}
            {transcript.source_url && (
              <>
                {" · "}
                <a
                  href={transcript.source_url}
                  className="text-sky-700 underline decoration-sky-300 hover:decoration-sky-700"
                  rel="nofollow noopener"
                  data-testid="public-source"
                >
                  {audio ? "Listen" : `Watch on ${platformLabel(transcript.platform)}`}
                </a>
              </>
            )}
          </p>
          {/* One line of small links, even on a phone: the text, not the downloads, fills the first screen. */}
          <p className="flex flex-wrap items-center gap-x-1 text-sm" data-testid="public-downloads">
            <span className="pr-1 text-stone-600" aria-hidden="true">
              Download
            </span>
            {FORMAT_TABS.map((tab) => (
              <a
                key={tab.format}
                href={`/v1/public/${transcript.slug}/download?format=${tab.format}`}
                className={downloadLink}
                download
                rel="nofollow"
              >
                <span className="sr-only">Download </span>.{tab.extension}
              </a>
            ))}
          </p>
        </header>
        <PublicTranscript
          lines={segments.map(publicLine)}
          player={player ? { ...player, title } : null}
          audio={audio}
          momentPrefix={momentPrefix(transcript)}
          initialQuery={query}
          jsonLd={jsonLdHead(transcript, player?.src ?? null, show)}
          title={title}
        />
      </main>
    </div>
  );
}
