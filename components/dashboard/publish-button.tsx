"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { publishTranscript, type PublishResponse } from "@/lib/browser/publishing";
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
        void navigator.clipboard?.writeText(url).then(() => {
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

/** Publishes a finished transcript (POST /v1/publish) and shows its public link. */
export function PublishButton({ url, lang, compact = false }: { url: string; lang: string; compact?: boolean }) {
  const [published, setPublished] = useState<PublishResponse | null>(null);
  const mutation = useMutation({ mutationFn: () => publishTranscript(url, lang), onSuccess: setPublished });
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
        <CopyLinkButton url={published.url} />
      </span>
    );
  }
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        onClick={() => mutation.mutate()}
        disabled={mutation.isPending}
        className={buttonClass("secondary", "sm")}
        data-testid="publish-button"
      >
        {mutation.isPending ? "Publishing…" : "Publish"}
      </button>
      {mutation.error && (
        <span role="alert" className="text-xs text-red-700">
          {mutation.error.message}
        </span>
      )}
    </span>
  );
}
