"use client";

import { useState } from "react";
import { fetchNotesZip, saveBlob } from "@/lib/browser/exports";
import { buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * "Export as notes": the transcripts of `selection` (a POST /v1/exports selection: History's filters, a search's
 * moments, a followed show) as a zip of Markdown notes, saved as a file.
 */
export function ExportNotesButton({
  selection,
  label,
  testId,
  name,
}: {
  selection: object;
  label: string;
  testId: string;
  /** The button's accessible name where the page has one such button for each of several things. */
  name?: string;
}) {
  const hydrated = useHydrated();
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  const run = async () => {
    setState({ busy: true, error: null, done: null });
    try {
      const zip = await fetchNotesZip(selection);
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
        aria-label={name}
        title="Markdown notes with their properties, for Obsidian, Logseq or any Markdown folder"
        data-testid={testId}
      >
        {state.busy ? "Exporting…" : label}
      </button>
      {state.done && (
        <span className="text-sm text-stone-600" role="status">
          {state.done}
        </span>
      )}
      {state.error && (
        <Notice tone="error" data-testid={`${testId}-error`}>
          {state.error}
        </Notice>
      )}
    </div>
  );
}
