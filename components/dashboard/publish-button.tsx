"use client";

import { useState } from "react";
import { usePathname } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { publishTranscript, unpublishTranscript, type PublishResponse } from "@/lib/browser/publishing";
import { TRANSCRIPTIONS_KEY } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";

/** Copies a link (or any text), showing "Copied" for a moment. */
export function CopyLinkButton({
  url,
  label = "Copy link",
  ariaLabel,
  testId = "copy-link",
}: {
  url: string;
  label?: string;
  ariaLabel?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        // A link on this site may be given as a path: what is copied is the whole address.
        void navigator.clipboard?.writeText(new URL(url, window.location.href).toString()).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
      className={buttonClass("secondary", "sm")}
      aria-label={ariaLabel}
      data-testid={testId}
    >
      {copied ? "Copied" : label}
    </button>
  );
}

/**
 * Publishes a finished transcript (POST /v1/publish) and shows its public link. `published`: it is published
 * already (a history row says so, or the form came back saying so), so its link shows from the start.
 * `unpublish`: the link comes with Unpublish. The button is a plain form's (POST /dashboard/publish, which comes
 * back to `back`, this page by default), so a press before the page's scripts run publishes too; once they run,
 * the press is handled here.
 */
export function PublishButton({
  url,
  lang,
  compact = false,
  published: initial = null,
  unpublish = false,
  name,
  back,
  failure = null,
}: {
  url: string;
  lang: string;
  compact?: boolean;
  published?: PublishResponse | null;
  unpublish?: boolean;
  /** What is published, for the buttons' accessible names where a list has many. */
  name?: string;
  /** The page the form comes back to (its path and query); default: this page's path. */
  back?: string;
  /** Why the form's publish failed (it came back saying so). */
  failure?: string | null;
}) {
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const [published, setPublished] = useState<PublishResponse | null>(initial);
  const historyChanged = () => void queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
  const mutation = useMutation({
    mutationFn: () => publishTranscript(url, lang),
    onSuccess: (response) => {
      setPublished(response);
      historyChanged();
    },
  });
  const off = useMutation({
    mutationFn: (slug: string) => unpublishTranscript(slug),
    onSuccess: () => {
      setPublished(null);
      mutation.reset();
      historyChanged();
    },
  });
  if (published) {
    return (
      <span className="flex flex-wrap items-center gap-2 text-sm" data-testid="published-link">
        <a
          href={published.url}
          target="_blank"
          rel="noopener"
          className={`underline decoration-stone-400 hover:decoration-stone-900 max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${focusRing}`}
        >
          {compact ? "Public page" : published.url}
        </a>
        <CopyLinkButton url={published.url} ariaLabel={name ? `Copy link of ${name}` : undefined} />
        {unpublish && (
          <button
            type="button"
            onClick={() => off.mutate(published.slug)}
            disabled={off.isPending}
            className={`${buttonClass("secondary", "sm")} text-red-800`}
            aria-label={name ? `${off.isPending ? "Unpublishing" : "Unpublish"} ${name}` : undefined}
            data-testid="history-unpublish"
          >
            {off.isPending ? "Unpublishing…" : "Unpublish"}
          </button>
        )}
        {off.error && (
          <span role="alert" className="text-xs text-red-700">
            {off.error.message}
          </span>
        )}
      </span>
    );
  }
  const error = mutation.error?.message ?? (mutation.isIdle ? failure : null);
  return (
    <form
      method="post"
      action="/dashboard/publish"
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate();
      }}
      className="flex items-center gap-2"
    >
      <input type="hidden" name="url" value={url} />
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name="back" value={back ?? pathname} />
      <button
        type="submit"
        disabled={mutation.isPending}
        className={buttonClass("secondary", "sm")}
        data-testid="publish-button"
      >
        {mutation.isPending ? "Publishing…" : "Publish"}
      </button>
      {error && (
        <span role="alert" className="text-xs text-red-700" data-testid="publish-error">
          {error}
        </span>
      )}
    </form>
  );
}
