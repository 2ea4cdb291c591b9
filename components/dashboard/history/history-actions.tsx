"use client";

import { useState } from "react";
import { historyPublishing } from "@/lib/browser/publishing";
import { downloadHref, type TranscriptionEntry } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";
import { CopyLinkButton, PublishButton } from "@/components/dashboard/publish-button";
import { useAbilities } from "@/components/dashboard/abilities";
import { focusRing } from "@/components/ui/focus";
import { displayTitle } from "@/components/dashboard/history/history-cells";

const actionClass = buttonClass("secondary", "sm");

/** Download (text and SRT), publish and delete; delete asks once more, in place. */
export function Actions({
  entry,
  onDelete,
}: {
  entry: TranscriptionEntry;
  onDelete: (entry: TranscriptionEntry) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const may = useAbilities();
  const publishing = historyPublishing(entry);
  const running = entry.status === "in_progress";
  const name = displayTitle(entry);
  if (confirming) {
    return (
      <div
        role="group"
        aria-label={`Delete ${name}?`}
        className="flex flex-wrap items-center gap-2 text-xs"
        data-testid="history-delete-confirm"
      >
        <span>Delete from your history?</span>
        <button
          type="button"
          autoFocus
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onDelete(entry);
            } finally {
              setBusy(false);
              setConfirming(false);
            }
          }}
          className={buttonClass("danger", "sm")}
        >
          {busy ? "Deleting…" : "Delete"}
        </button>
        <button type="button" onClick={() => setConfirming(false)} className={actionClass}>
          Keep
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {entry.transcript_id && (
        <>
          <a
            href={downloadHref(entry.transcript_id, "text")}
            download
            className={actionClass}
            aria-label={`Download .txt of ${name}`}
            data-testid="history-download-txt"
          >
            .txt
          </a>
          <a
            href={downloadHref(entry.transcript_id, "srt")}
            download
            className={actionClass}
            aria-label={`Download .srt of ${name}`}
            data-testid="history-download-srt"
          >
            .srt
          </a>
        </>
      )}
      {publishing && !may.publish && publishing.published && (
        // A viewer reads the public page but neither publishes nor takes it down.
        <span className="flex flex-wrap items-center gap-2 text-sm" data-testid="published-link">
          <a
            href={publishing.published.url}
            target="_blank"
            rel="noopener"
            className={`underline decoration-stone-400 hover:decoration-stone-900 max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${focusRing}`}
          >
            Public page
          </a>
          <CopyLinkButton url={publishing.published.url} ariaLabel={`Copy link of ${name}`} />
        </span>
      )}
      {publishing && may.publish && (
        // Keyed by what the list says, so a publish or unpublish elsewhere shows once the list is read again.
        <PublishButton
          key={publishing.published?.slug ?? "unpublished"}
          url={publishing.url}
          lang={publishing.lang}
          published={publishing.published}
          compact
          unpublish
          name={name}
        />
      )}
      {!running && may.delete && (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className={`${actionClass} text-red-800`}
          aria-label={`Delete ${name}`}
          data-testid="history-delete"
        >
          Delete
        </button>
      )}
    </div>
  );
}
