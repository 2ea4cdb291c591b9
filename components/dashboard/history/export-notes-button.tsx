"use client";

import { useState } from "react";
import { fetchNotesZip, historyExportSelection, saveBlob } from "@/lib/browser/exports";
import type { HistoryParams } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";

/** History's "Export as notes": the finished transcripts the filters show (all of them without one) as a zip of notes. */
export function ExportNotesButton({ params }: { params: Pick<HistoryParams, "q" | "platform"> }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  const filtered = params.q.trim() !== "" || params.platform !== null;
  const run = async () => {
    setState({ busy: true, error: null, done: null });
    try {
      const zip = await fetchNotesZip(historyExportSelection(params));
      saveBlob(zip.blob, zip.name);
      setState({ busy: false, error: null, done: `${zip.count} ${zip.count === 1 ? "note" : "notes"} in ${zip.name}` });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message, done: null });
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className={buttonClass("secondary", "sm")}
        onClick={run}
        disabled={!hydrated || state.busy}
        aria-busy={state.busy}
        title="Markdown notes with their properties, for Obsidian, Logseq or any Markdown folder"
        data-testid="history-export-notes"
      >
        {state.busy ? "Exporting…" : filtered ? "Export these as notes (.zip)" : "Export all as notes (.zip)"}
      </button>
      {state.done && (
        <span className="text-sm text-stone-600" role="status">
          {state.done}
        </span>
      )}
      {state.error && (
        <Notice tone="error" data-testid="history-export-error">
          {state.error}
        </Notice>
      )}
    </div>
  );
}
