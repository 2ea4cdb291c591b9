"use client";

import { useEffect, useReducer, useRef, useState, type KeyboardEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Transcript } from "@/lib/browser/transcripts";
import {
  countMatches,
  editorReducer,
  initialEditorState,
  restoreOriginalTranscript,
  saveTranscriptEdit,
  storeSavedTranscript,
} from "@/lib/browser/transcript-edits";
import { formatShortClock } from "@/lib/formats/time";
import type { Segment } from "@/lib/formats/types";
import { plainClick } from "@/lib/browser/transcript-address";
import { Button, buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { FIELD_SIZING, useGrowToContent } from "@/components/ui/grow-to-content";
import { Changes, clock, Revisions } from "@/components/transcript/dashboard/revisions";
import { SpeakerRename } from "@/components/transcript/dashboard/speaker-rename";

/**
 * Edit mode of the transcript viewer: every segment's text in place, its start and end moved within
 * its neighbours (Alt+←/→ the start, Alt+Shift+←/→ the end, by 0.1 s), a line split at the cursor (Alt+Enter) or
 * joined to the one before (Alt+Backspace), find and replace across the whole transcript, undo, and saving as the
 * author's correction (PATCH /v1/transcripts/{id}; only they see it, and their public page). Every change keeps
 * what it does not touch: a line's speaker, its unchanged words' times. Keyboard-first: Ctrl/Cmd+Enter saves, Esc
 * leaves (asking first when there are unsaved changes), Ctrl/Cmd+Z outside a text field undoes the last change
 * (inside one, the field's own undo).
 * Saving keeps the reader where they were: the page's scroll and the focused segment stay as they are.
 */
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
  const [status, setStatus] = useState<{ kind: "idle" | "saving" | "saved" | "restored" | "error"; message?: string }>({
    kind: "idle",
  });
  const root = useRef<HTMLDivElement>(null);
  const lines = useRef<HTMLOListElement>(null);
  // Set while a split or a join remounts the lines: the text area being removed was committed already, and its
  // blur (fired on removal by some browsers) would write its whole text over the line now at its index.
  const regrouping = useRef(false);
  // The line to focus once the lines are remounted after a split or a join, and where its cursor goes.
  const refocus = useRef<{ index: number; at: number } | null>(null);
  useGrowToContent(lines, [version]);
  useEffect(() => {
    const target = refocus.current;
    refocus.current = null;
    regrouping.current = false;
    if (!target) return;
    const area = lines.current?.querySelector<HTMLTextAreaElement>(`textarea[data-segment="${target.index}"]`);
    area?.focus();
    area?.setSelectionRange(target.at, target.at);
  }, [version]);
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
    storeSavedTranscript(queryClient, saved);
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

  /** A saved version (components/transcript/dashboard/revisions.tsx) saved again as the newest; unsaved changes are dropped. */
  async function restore(segments: readonly Segment[]) {
    setStatus({ kind: "saving" });
    try {
      const saved = await saveTranscriptEdit(transcript.id, segments);
      dispatch({ type: "saved", segments: saved.segments ?? segments });
      setVersion((v) => v + 1);
      publish(saved);
      setSaves((n) => n + 1);
      setStatus({ kind: "restored" });
    } catch (error) {
      setStatus({ kind: "error", message: error instanceof Error ? error.message : "The version was not restored." });
    }
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

  /** Alt+Enter: the line cut in two at the cursor. */
  function split(index: number, area: HTMLTextAreaElement) {
    const next = editorReducer(state, { type: "split", index, text: area.value, at: area.selectionStart });
    if (next.segments.length === state.segments.length) return;
    dispatch({ type: "split", index, text: area.value, at: area.selectionStart });
    regrouping.current = true;
    refocus.current = { index: index + 1, at: 0 };
    setVersion((v) => v + 1);
  }

  /** Alt+Backspace at a line's start: the line joined to the one before, the cursor where they meet. */
  function joinPrevious(index: number, area: HTMLTextAreaElement) {
    const previous = state.segments[index - 1];
    if (!previous) return;
    dispatch({ type: "merge-previous", index, text: area.value });
    regrouping.current = true;
    refocus.current = { index: index - 1, at: previous.text.trimEnd().length + 1 };
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
      {/* Pinned under the phone's sticky player (its height is --player-height, set by the viewer), so that a tap on
          Save hits Save; at the top of the text's column on wide screens, where the player is beside it. */}
      <div
        className="sticky top-[var(--player-height,0px)] z-10 flex flex-wrap items-end gap-2 border-b border-stone-200 bg-stone-50/95 py-2 backdrop-blur lg:top-0"
        data-pinned
        data-testid="editor-toolbar"
      >
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
          : status.kind === "restored"
            ? "Restored: that version is now your newest."
            : status.kind === "error"
              ? ""
              : state.dirty
                ? "Unsaved changes. Ctrl/Cmd+Enter saves, Esc leaves."
                : "Edit any line; Alt+←/→ moves its start, Alt+Shift+←/→ its end, Alt+Enter splits it at the cursor, Alt+Backspace at its start joins it to the line before. Ctrl/Cmd+Enter saves, Esc leaves. Unchanged words keep their timings and every line its speaker."}
      </p>
      {status.kind === "error" && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {status.message}
        </p>
      )}
      <SpeakerRename
        transcript={transcript}
        disabled={state.dirty || status.kind === "saving"}
        onSaved={(saved) => {
          dispatch({ type: "saved", segments: saved.segments ?? state.segments });
          setVersion((v) => v + 1);
          publish(saved);
          setSaves((n) => n + 1);
          setStatus({ kind: "saved" });
        }}
      />
      {transcript.edited && <Changes id={transcript.id} saves={saves} />}
      {transcript.edited && (
        <Revisions id={transcript.id} saves={saves} busy={status.kind === "saving"} onRestore={restore} />
      )}
      <ol ref={lines} className="flex flex-col gap-1" data-testid="editor-lines">
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
              rows={1}
              onBlur={(e) => {
                if (!regrouping.current) dispatch({ type: "set-text", index, text: e.currentTarget.value });
              }}
              aria-keyshortcuts="Alt+Enter Alt+Backspace"
              onKeyDown={(e) => {
                if (!e.altKey) return;
                const area = e.currentTarget;
                if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) {
                  e.preventDefault();
                  split(index, area);
                  return;
                }
                if (e.key === "Backspace" && area.selectionStart === 0 && area.selectionEnd === 0) {
                  e.preventDefault();
                  joinPrevious(index, area);
                  return;
                }
                if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
                e.preventDefault();
                const by = e.key === "ArrowLeft" ? -0.1 : 0.1;
                dispatch({ type: "nudge", index, edge: e.shiftKey ? "end" : "start", by, maxEnd });
              }}
              className={`w-full rounded border border-transparent bg-transparent px-1 py-0.5 text-sm leading-relaxed break-words hover:border-stone-200 focus:border-stone-300 focus:bg-white ${FIELD_SIZING} ${focusRing}`}
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
  href,
  onToggle,
  canEdit = true,
}: {
  edited: boolean;
  editing: boolean;
  /** The address that opens the editor (the page rendered in edit mode): followed before the page's scripts run. */
  href: string;
  onToggle: (editing: boolean) => void;
  /** False for a role that may read but not correct: the mark stays, the button goes. */
  canEdit?: boolean;
}) {
  return (
    <span className="flex items-center gap-2">
      {!editing && canEdit && (
        <a
          href={href}
          onClick={(event) => {
            if (!plainClick(event)) return;
            event.preventDefault();
            onToggle(true);
          }}
          className={buttonClass("secondary", "sm")}
          data-testid="edit-transcript"
        >
          Edit
        </a>
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
