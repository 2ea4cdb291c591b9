"use client";

import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchChanges, fetchRevision, fetchRevisions, type RevisionEntry } from "@/lib/browser/transcript-edits";
import { formatShortClock } from "@/lib/formats/time";
import type { Segment } from "@/lib/formats/types";
import { Button } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { formatDateTime } from "@/lib/browser/dates";

// The editor's history of a correction: what changed against the original, and every saved version (the
// original included) to open read-only and to restore. Restoring saves that version again as the newest
// revision, so the versions after it stay in the list and can be restored in turn.

/** m:ss.t: a cue's time to the tenth of a second, as the editor moves it. */
export function clock(seconds: number): string {
  const tenths = Math.floor((seconds % 1) * 10 + 1e-6);
  return `${formatShortClock(Math.floor(seconds))}.${tenths}`;
}

const revisionKey = (id: string, revision: string) => ["transcript-revision", id, revision] as const;

function versionLabel(revision: RevisionEntry): string {
  return revision.id === "original"
    ? "Original"
    : `Saved ${formatDateTime(revision.created_at ?? 0, { seconds: true })}`;
}

/** "Changes from the original": the saved correction's word-level diff, read when opened. */
export function Changes({ id, saves }: { id: string; saves: number }) {
  const [open, setOpen] = useState(false);
  const changes = useQuery({
    queryKey: ["transcript-changes", id, saves],
    queryFn: () => fetchChanges(id),
    enabled: open,
  });
  return (
    <details
      className="rounded-md border border-stone-200 px-3 py-2 text-sm"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="editor-changes"
    >
      <summary className={`cursor-pointer text-stone-700 ${focusRing}`}>Changes from the original</summary>
      {changes.isPending && open && <p className="text-xs text-stone-600">Loading…</p>}
      {changes.data && (
        <>
          <p className="mt-1 text-xs text-stone-600">
            {changes.data.changes.length} change{changes.data.changes.length === 1 ? "" : "s"}.
          </p>
          <ul className="mt-1 flex max-h-64 flex-col gap-0.5 overflow-auto">
            {changes.data.changes.slice(0, 500).map((c, i) => (
              <li key={i} className="font-mono text-xs">
                <span className="text-stone-500">{clock(c.revision_start ?? c.original_start ?? 0)}</span>{" "}
                {c.original && <del className="text-red-800">{c.original}</del>}{" "}
                {c.revision && <ins className="text-emerald-800 no-underline">{c.revision}</ins>}
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

/** "Saved versions": each one opened read-only, or restored (saved again as the newest). */
export function Revisions({
  id,
  saves,
  busy,
  onRestore,
}: {
  id: string;
  saves: number;
  busy: boolean;
  onRestore: (segments: readonly Segment[]) => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["transcript-revisions", id, saves],
    queryFn: () => fetchRevisions(id),
    enabled: open,
  });
  const revisions = list.data?.revisions ?? [];
  const shownEntry = revisions.find((revision) => revision.id === shown) ?? null;

  async function restore(revision: RevisionEntry) {
    if (
      !window.confirm(
        `Restore this version (${versionLabel(revision)})? It is saved as your newest version; unsaved changes here are dropped.`,
      )
    )
      return;
    const version = await queryClient.fetchQuery({
      queryKey: revisionKey(id, revision.id),
      queryFn: () => fetchRevision(id, revision.id),
      staleTime: Infinity,
    });
    await onRestore(version.segments ?? []);
    setShown(null);
  }

  return (
    <details
      className="rounded-md border border-stone-200 px-3 py-2 text-sm"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="editor-revisions"
    >
      <summary className={`cursor-pointer text-stone-700 ${focusRing}`}>Saved versions</summary>
      {list.isPending && open && <p className="text-xs text-stone-600">Loading…</p>}
      {list.isError && (
        <p role="alert" className="text-xs text-red-800">
          {list.error.message}
        </p>
      )}
      {list.data && (
        <>
          <p className="mt-1 text-xs text-stone-600">
            Your newest {list.data.kept} saves are kept, and the original. Restoring a version saves it again as the
            newest.
          </p>
          <ul className="mt-2 flex flex-col divide-y divide-stone-100">
            {revisions.map((revision) => (
              <li key={revision.id} className="flex flex-wrap items-center gap-2 py-1.5" data-testid="revision">
                <span className="min-w-0 grow">
                  {versionLabel(revision)}
                  <span className="text-xs text-stone-600"> · {revision.segment_count} lines</span>
                  {revision.current && (
                    <span className="ml-2 rounded bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">current</span>
                  )}
                </span>
                <Button
                  size="sm"
                  aria-expanded={shown === revision.id}
                  onClick={() => setShown((now) => (now === revision.id ? null : revision.id))}
                  data-testid="revision-open"
                >
                  {shown === revision.id ? "Close" : "Open"}
                </Button>
                {!revision.current && (
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => void restore(revision)}
                    data-testid="revision-restore"
                  >
                    Restore
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {shownEntry && <RevisionText id={id} revision={shownEntry} />}
        </>
      )}
    </details>
  );
}

/** One saved version, read-only: its lines with their times. */
function RevisionText({ id, revision }: { id: string; revision: RevisionEntry }) {
  const version = useQuery({
    queryKey: revisionKey(id, revision.id),
    queryFn: () => fetchRevision(id, revision.id),
    staleTime: Infinity,
  });
  return (
    <section
      aria-label={versionLabel(revision)}
      className="mt-2 rounded border border-stone-200 bg-white"
      data-testid="revision-view"
    >
      <h3 className="border-b border-stone-200 px-3 py-1.5 text-xs font-medium text-stone-700">
        {versionLabel(revision)} (read-only)
      </h3>
      {version.isPending ? (
        <p className="px-3 py-2 text-xs text-stone-600">Loading…</p>
      ) : version.isError ? (
        <p role="alert" className="px-3 py-2 text-xs text-red-800">
          {version.error.message}
        </p>
      ) : (
        <ol tabIndex={0} className={`flex max-h-80 flex-col gap-0.5 overflow-auto px-3 py-2 ${focusRing}`}>
          {(version.data.segments ?? []).map((segment, index) => (
            <li key={index} className="grid grid-cols-[4rem_minmax(0,1fr)] gap-2">
              <span className="font-mono text-xs text-stone-500 tabular-nums">{clock(segment.start)}</span>
              <span className="break-words whitespace-pre-wrap">{segment.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
