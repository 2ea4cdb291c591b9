"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { platformLabel } from "@/lib/browser/transcripts";
import { isLoopbackUrl, tagParts, unpublishTranscript } from "@/lib/browser/publishing";
import { CopyLinkButton } from "@/components/dashboard/publish-button";
import type { MyPublication } from "@/lib/publishing/list-my-publications";
import { formatDate } from "@/lib/browser/dates";

/** The caller's published transcripts, each with its link, copy-link, unpublish and the tags for a podcast feed. */
export function PublishedList({ items }: { items: MyPublication[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (items.length === 0) {
    return (
      <p className="text-stone-600" data-testid="published-empty">
        Nothing published yet. Open a finished transcript and press Publish.
      </p>
    );
  }
  const unpublish = async (slug: string) => {
    setBusy(slug);
    setError(null);
    try {
      await unpublishTranscript(slug);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not unpublish.");
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-col gap-3">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <ul className="flex flex-col divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
        {items.map((item) => (
          <li
            key={item.slug}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
            data-testid="published-row"
          >
            <div className="flex min-w-0 flex-col">
              <a
                href={item.url}
                className="truncate font-medium underline decoration-stone-300 hover:decoration-stone-900"
              >
                {item.title?.trim() || "Untitled"}
              </a>
              <span className="text-xs text-stone-600">
                {platformLabel(item.platform)} · {item.lang} · {formatDate(item.publishedAt)}
              </span>
            </div>
            <div className="flex items-center gap-2">
              <CopyLinkButton url={item.url} />
              <button
                type="button"
                onClick={() => void unpublish(item.slug)}
                disabled={busy === item.slug}
                className="rounded-md border border-red-300 px-2 py-1 text-xs text-red-800 hover:bg-red-50 disabled:opacity-50"
                data-testid="unpublish-button"
              >
                {busy === item.slug ? "Unpublishing…" : "Unpublish"}
              </button>
            </div>
            <FeedTags tags={item.feedTags} pageUrl={item.url} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The `<podcast:transcript>` element of each file, to paste into the episode's item of a podcast feed: wrapped only
 * between its attributes (a URL wider than the screen scrolls). Their links are on APP_URL; where that is this
 * machine only, a podcast app could not fetch them, and the note says what to set.
 */
function FeedTags({ tags, pageUrl }: { tags: MyPublication["feedTags"]; pageUrl: string }) {
  const local = isLoopbackUrl(pageUrl);
  return (
    <details className="w-full min-w-0 text-sm" data-testid="feed-tags">
      <summary className="cursor-pointer text-stone-700">Podcast feed tags</summary>
      {local && (
        <p className="mt-2 text-stone-700" data-testid="feed-tags-local">
          These links point at {new URL(pageUrl).origin}, which only this computer can open: podcast apps cannot fetch
          them. Set APP_URL to this server&apos;s public address (https://…) and restart it first.
        </p>
      )}
      <ul className="mt-2 flex flex-col gap-2">
        {tags.map(({ type, tag }) => (
          <li key={type} className="flex min-w-0 items-start gap-2">
            <code
              className="min-w-0 flex-1 overflow-x-auto rounded bg-stone-100 px-2 py-1 text-xs"
              data-testid="feed-tag"
            >
              {tagParts(tag).map((part, k) => (
                <span key={k}>
                  {k > 0 && " "}
                  <span className="inline-block whitespace-nowrap">{part}</span>
                </span>
              ))}
            </code>
            <CopyLinkButton url={tag} label="Copy" ariaLabel={`Copy the ${type} tag`} testId="copy-feed-tag" />
          </li>
        ))}
      </ul>
    </details>
  );
}
