"use client";

import { useEffect, useReducer, useRef, useState, type KeyboardEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { transcriptKey, type Transcript } from "@/lib/client/transcripts";
import {
  countMatches,
  editorReducer,
  fetchChanges,
  fetchRevisions,
  initialEditorState,
  restoreOriginalTranscript,
  saveTranscriptEdit,
} from "@/lib/client/transcript-edits";
import { formatShortClock } from "@/lib/formats/time";
import type { Segment } from "@/lib/formats/types";
import { Button } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";

/**
 * Edit mode of the transcript viewer (issue 40): every segment's text in place, its start and end moved within
 * its neighbours (Alt+←/→ the start, Alt+Shift+←/→ the end, by 0.1 s), find and replace across the
 * whole transcript, undo, and saving as the author's correction (PATCH /v1/transcripts/{id}; only they see it,
 * and their public page). Keyboard-first: Ctrl/Cmd+Enter saves, Esc leaves (asking first when there are
 * unsaved changes), Ctrl/Cmd+Z outside a text field undoes the last change (inside one, the field's own undo).
 * Saving keeps the reader where they were: the page's scroll and the focused segment stay as they are.
 */
/** m:ss.t: a cue's time to the tenth of a second, as the editor moves it. */
function clock(seconds: number): string {
  const tenths = Math.floor((seconds % 1) * 10 + 1e-6);
  return `${formatShortClock(Math.floor(seconds))}.${tenths}`;
}

export function TranscriptEditor({
  transcript,
  onSaved,
  onClose,
}: {
  transcript: Transcript;
  onSaved: (saved: Transcript) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(editorReducer, transcript.segments ?? [], initialEditorState);
  // Text areas are uncontrolled (a 3-hour transcript has thousands); `version` remounts them after an undo or a replace.
  const [version, setVersion] = useState(0);
  // Saves so far: the "Changes" list is read again after each.
  const [saves, setSaves] = useState(0);
  const [find, setFind] = useState("");
  const [replace, setReplace] = useState("");
  const [status, setStatus] = useState<{ kind: "idle" | "saving" | "saved" | "error"; message?: string }>({
    kind: "idle",
  });
  const root = useRef<HTMLDivElement>(null);
  const matches = find ? countMatches(state.segments, find) : 0;
  const maxEnd = Math.max(transcript.duration_seconds, transcript.segments?.at(-1)?.end ?? 0);

  /** The focused text area's text, committed before a save or an undo. */
  function commitFocused(): readonly Segment[] {
    const active = document.activeElement;
    if (active instanceof HTMLTextAreaElement && active.dataset.segment !== undefined) {
      const index = Number(active.dataset.segment);
      const next = editorReducer(state, { type: "set-text", index, text: active.value });
      if (next !== state) dispatch({ type: "set-text", index, text: active.value });
      return next.segments;
    }
    return state.segments;
  }

  function publish(saved: Transcript) {
    queryClient.setQueryData(transcriptKey(saved.id, "json"), saved);
    for (const format of ["text", "srt", "vtt", "md"] as const)
      queryClient.removeQueries({ queryKey: transcriptKey(saved.id, format) });
    onSaved(saved);
  }

  async function save() {
    const segments = commitFocused();
    const scrollY = window.scrollY;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setStatus({ kind: "saving" });
    try {
      const saved = await saveTranscriptEdit(transcript.id, segments);
      dispatch({ type: "saved", segments: saved.segments ?? segments });
      publish(saved);
      setSaves((n) => n + 1);
      setStatus({ kind: "saved" });
    } catch (error) {
      setStatus({ kind: "error", message: error instanceof Error ? error.message : "The correction was not saved." });
    }
    // The reader's place: where the page was, and the segment they were in.
    window.scrollTo({ top: scrollY });
    focused?.focus({ preventScroll: true });
  }

  async function revert() {
    if (!window.confirm("Drop all your corrections of this transcript and go back to the original?")) return;
    setStatus({ kind: "saving" });
    try {
      const original = await restoreOriginalTranscript(transcript.id);
      publish(original);
      onClose();
    } catch (error) {
      setStatus({ kind: "error", message: error instanceof Error ? error.message : "The original was not restored." });
    }
  }

  function close() {
    commitFocused();
    if (state.dirty && !window.confirm("Leave without saving your changes?")) return;
    onClose();
  }

  function undo() {
    dispatch({ type: "undo" });
    setVersion((v) => v + 1);
  }

  function replaceAll() {
    commitFocused();
    dispatch({ type: "replace-all", find, replace });
    setVersion((v) => v + 1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key === "Enter") {
      event.preventDefault();
      void save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (mod && event.key.toLowerCase() === "z" && !event.shiftKey) {
      const target = event.target as HTMLElement;
      if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) return;
      event.preventDefault();
      undo();
    }
  }

  // Focus the first segment on opening, so the keys work at once.
  useEffect(() => {
    root.current?.querySelector<HTMLTextAreaElement>("textarea")?.focus({ preventScroll: true });
  }, []);

  return (
    <section
      ref={root}
      className="flex min-w-0 flex-col gap-3"
      aria-label="Edit the transcript"
      onKeyDown={onKeyDown}
      data-testid="transcript-editor"
    >
      <div className="sticky top-0 z-10 flex flex-wrap items-end gap-2 border-b border-stone-200 bg-stone-50/95 py-2 backdrop-blur">
        <label className="flex flex-col text-xs text-stone-600">
          Find
          <input
            value={find}
            onChange={(e) => setFind(e.target.value)}
            className={`rounded border border-stone-300 px-2 py-1 text-sm text-stone-900 ${focusRing}`}
            data-testid="editor-find"
          />
        </label>
        <label className="flex flex-col text-xs text-stone-600">
          Replace with
          <input
            value={replace}
            onChange={(e) => setReplace(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) {
                e.preventDefault();
                replaceAll();
              }
            }}
            className={`rounded border border-stone-300 px-2 py-1 text-sm text-stone-900 ${focusRing}`}
            data-testid="editor-replace"
          />
        </label>
        <Button size="sm" onClick={replaceAll} disabled={matches === 0} data-testid="editor-replace-all">
          Replace all{find ? ` (${matches})` : ""}
        </Button>
        <span className="grow" />
        <Button
          size="sm"
          onClick={undo}
          disabled={state.past.length === 0}
          title="Ctrl/Cmd+Z"
          data-testid="editor-undo"
        >
          Undo
        </Button>
        {transcript.edited && (
          <a
            href={`/v1/transcripts/${encodeURIComponent(transcript.id)}/download?format=srt&revision=original`}
            className={`text-xs underline decoration-stone-400 hover:decoration-stone-900 ${focusRing}`}
            data-testid="editor-original"
          >
            Original (.srt)
          </a>
        )}
        {transcript.edited && (
          <Button size="sm" variant="danger-outline" onClick={() => void revert()} data-testid="editor-revert">
            Revert to original
          </Button>
        )}
        <Button size="sm" onClick={close} title="Esc" data-testid="editor-cancel">
          Done
        </Button>
        <Button
          size="sm"
          variant="primary"
          onClick={() => void save()}
          disabled={status.kind === "saving"}
          title="Ctrl/Cmd+Enter"
          data-testid="editor-save"
        >
          {status.kind === "saving" ? "Saving…" : "Save"}
        </Button>
      </div>
      <p className="text-xs text-stone-600" role="status" aria-live="polite" data-testid="editor-status">
        {status.kind === "saved"
          ? "Saved. Only you see this correction (and your public page of it)."
          : status.kind === "error"
            ? ""
            : state.dirty
              ? "Unsaved changes. Ctrl/Cmd+Enter saves, Esc leaves."
              : "Edit any line; Alt+←/→ moves its start, Alt+Shift+←/→ its end. Ctrl/Cmd+Enter saves, Esc leaves. Unchanged words keep their timings."}
      </p>
      {status.kind === "error" && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {status.message}
        </p>
      )}
      {transcript.edited && <Changes id={transcript.id} saves={saves} />}
      <ol className="flex flex-col gap-1" data-testid="editor-lines">
        {state.segments.map((segment, index) => (
          <li key={`${version}:${index}`} className="grid grid-cols-[5.5rem_minmax(0,1fr)] items-start gap-2">
            <span className="pt-1 font-mono text-xs text-stone-500 tabular-nums" data-testid="editor-times">
              {clock(segment.start)}
              <br />
              {clock(segment.end)}
            </span>
            <textarea
              defaultValue={segment.text}
              data-segment={index}
              aria-label={`Line at ${formatShortClock(segment.start)}`}
              rows={Math.max(1, Math.ceil(segment.text.length / 90))}
              onBlur={(e) => dispatch({ type: "set-text", index, text: e.currentTarget.value })}
              onKeyDown={(e) => {
                if (!e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
                e.preventDefault();
                const by = e.key === "ArrowLeft" ? -0.1 : 0.1;
                dispatch({ type: "nudge", index, edge: e.shiftKey ? "end" : "start", by, maxEnd });
              }}
              className={`w-full resize-y rounded border border-transparent bg-transparent px-1 py-0.5 text-sm leading-relaxed hover:border-stone-200 focus:border-stone-300 focus:bg-white ${focusRing}`}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The viewer toolbar's switch into edit mode, and the "Edited" mark of the author's correction. */
export function EditToggle({
  edited,
  editing,
  onToggle,
}: {
  edited: boolean;
  editing: boolean;
  onToggle: (editing: boolean) => void;
}) {
  return (
    <span className="flex items-center gap-2">
      {!editing && (
        <Button size="sm" onClick={() => onToggle(true)} data-testid="edit-transcript">
          Edit
        </Button>
      )}
      {edited && (
        <span
          className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900"
          title="Your correction: only you see it (and your public page)"
          data-testid="transcript-edited"
        >
          Edited
        </span>
      )}
    </span>
  );
}

/** "Changes from the original": the saved correction's word-level diff and its saved revisions, read when opened. */
function Changes({ id, saves }: { id: string; saves: number }) {
  const [open, setOpen] = useState(false);
  const changes = useQuery({
    queryKey: ["transcript-changes", id, saves],
    queryFn: () => Promise.all([fetchChanges(id), fetchRevisions(id)]),
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
            {changes.data[0].changes.length} change{changes.data[0].changes.length === 1 ? "" : "s"};{" "}
            {changes.data[1].revisions.length - 1} saved revision{changes.data[1].revisions.length === 2 ? "" : "s"}{" "}
            kept, the newest from {new Date(changes.data[1].revisions[0]?.created_at ?? 0).toLocaleString()}.
          </p>
          <ul className="mt-1 flex max-h-64 flex-col gap-0.5 overflow-auto">
            {changes.data[0].changes.slice(0, 500).map((c, i) => (
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
