// Browser-side state of the transcript editor (components/transcript/dashboard/editor.tsx): the corrected segments, an
// undo stack, and the two API calls (save, restore the original). Pure apart from the calls, so the reducer
// is tested without a browser. Every action changes a segment through lib/edits/segment-edits.ts, so what it does
// not change (the speaker, word times) stays. Find and replace is lib/edits/find-replace.ts (no server code in it).

import type { QueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import { transcriptKey, type Transcript } from "@/lib/browser/transcripts";
import type { Segment } from "@/lib/formats/types";
import { countInSegments, replaceInSegments, type FindReplaceOptions } from "@/lib/edits/find-replace";
import { mergeSegments, splitSegment, withText, withTimes } from "@/lib/edits/segment-edits";

export interface EditorState {
  /** What the author will save. */
  segments: readonly Segment[];
  /** Earlier states, newest last: Ctrl/Cmd+Z goes back one. At most UNDO_DEPTH. */
  past: readonly (readonly Segment[])[];
  /** Changes since the last save (or since opening). */
  dirty: boolean;
}

export const UNDO_DEPTH = 100;

export type EditorAction =
  | { type: "set-text"; index: number; text: string }
  | { type: "set-times"; index: number; start: number; end: number }
  /** Moves a cue's start or end by `by` seconds, never past its neighbours (nor before 0 or after `maxEnd`). */
  | { type: "nudge"; index: number; edge: "start" | "end"; by: number; maxEnd: number }
  /** Cuts a segment in two at character `at` of `text` (its text as typed, committed first). */
  | { type: "split"; index: number; text: string; at: number }
  /** Joins a segment (its text as typed, committed first) to the one before it. */
  | { type: "merge-previous"; index: number; text: string }
  | { type: "replace-all"; find: string; replace: string; options?: FindReplaceOptions }
  | { type: "undo" }
  | { type: "saved"; segments: readonly Segment[] };

export function initialEditorState(segments: readonly Segment[]): EditorState {
  return { segments, past: [], dirty: false };
}

function push(state: EditorState, segments: readonly Segment[]): EditorState {
  if (segments === state.segments) return state;
  return { segments, past: [...state.past, state.segments].slice(-UNDO_DEPTH), dirty: true };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "set-text": {
      const old = state.segments[action.index];
      if (!old || old.text === action.text) return state;
      const segments = state.segments.slice();
      segments[action.index] = withText(old, action.text);
      return push(state, segments);
    }
    case "set-times": {
      const old = state.segments[action.index];
      if (!old || (old.start === action.start && old.end === action.end)) return state;
      const segments = state.segments.slice();
      segments[action.index] = withTimes(old, action.start, action.end);
      return push(state, segments);
    }
    case "nudge": {
      const old = state.segments[action.index];
      if (!old) return state;
      const prevEnd = state.segments[action.index - 1]?.end ?? 0;
      const nextStart = state.segments[action.index + 1]?.start ?? action.maxEnd;
      const ms = (s: number) => Math.round(s * 1000) / 1000;
      const start =
        action.edge === "start"
          ? ms(Math.min(old.end, Math.max(Math.min(prevEnd, old.start), old.start + action.by)))
          : old.start;
      const end =
        action.edge === "end"
          ? ms(Math.max(old.start, Math.min(Math.max(nextStart, old.end), old.end + action.by)))
          : old.end;
      return editorReducer(state, { type: "set-times", index: action.index, start, end });
    }
    case "split": {
      const old = state.segments[action.index];
      const halves = old ? splitSegment(withText(old, action.text), action.at) : null;
      if (!halves) return editorReducer(state, { type: "set-text", index: action.index, text: action.text });
      const segments = state.segments.slice();
      segments.splice(action.index, 1, ...halves);
      return push(state, segments);
    }
    case "merge-previous": {
      const previous = state.segments[action.index - 1];
      const old = state.segments[action.index];
      if (!previous || !old) return editorReducer(state, { type: "set-text", index: action.index, text: action.text });
      const segments = state.segments.slice();
      segments.splice(action.index - 1, 2, mergeSegments(previous, withText(old, action.text)));
      return push(state, segments);
    }
    case "replace-all": {
      const { segments, replaced } = replaceInSegments(state.segments, action.find, action.replace, action.options);
      return replaced === 0 ? state : push(state, segments);
    }
    case "undo": {
      const previous = state.past[state.past.length - 1];
      if (!previous) return state;
      return { segments: previous, past: state.past.slice(0, -1), dirty: state.past.length > 1 || state.dirty };
    }
    case "saved":
      return { segments: action.segments, past: state.past, dirty: false };
  }
}

/** How many times `find` occurs (for the "Replace all (n)" button). */
export function countMatches(segments: readonly Segment[], find: string, options?: FindReplaceOptions): number {
  return countInSegments(segments, find, options);
}

/** The body of PATCH /v1/transcripts/{id} that saves `segments` as they are. */
export function editBody(segments: readonly Segment[]): { segments: Segment[] } {
  const named = segments.some((s) => s.speaker !== undefined);
  return {
    segments: segments.map(({ start, end, text, words, speaker }) => {
      const out: Segment = words ? { start, end, text, words } : { start, end, text };
      // Where the transcript names speakers, each segment says its own ("" for none): a restored version keeps its names.
      if (named) out.speaker = speaker ?? "";
      return out;
    }),
  };
}

/** PATCH /v1/transcripts/{id}: the saved transcript as the author now sees it. */
export function saveTranscriptEdit(id: string, segments: readonly Segment[]): Promise<Transcript> {
  return apiFetch<Transcript>(`/v1/transcripts/${encodeURIComponent(id)}?format=json`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(editBody(segments)),
  });
}

/** PATCH /v1/transcripts/{id} with `rename_speaker`: one speaker renamed across the transcript, as a new revision. */
export function renameSpeaker(id: string, from: string, to: string): Promise<Transcript> {
  return apiFetch<Transcript>(`/v1/transcripts/${encodeURIComponent(id)}?format=json`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rename_speaker: { from, to } }),
  });
}

/** A saved version into the query cache: the viewer's JSON replaced, the other formats read again when shown. */
export function storeSavedTranscript(queryClient: QueryClient, saved: Transcript) {
  queryClient.setQueryData(transcriptKey(saved.id, "json"), saved);
  for (const format of ["text", "srt", "vtt", "md"] as const)
    queryClient.removeQueries({ queryKey: transcriptKey(saved.id, format) });
}

/** DELETE /v1/transcripts/{id}/edits: the original, everywhere. */
export function restoreOriginalTranscript(id: string): Promise<Transcript> {
  return apiFetch<Transcript>(`/v1/transcripts/${encodeURIComponent(id)}/edits?format=json`, { method: "DELETE" });
}

export interface RevisionChange {
  op: "replace" | "delete" | "insert";
  original: string;
  revision: string;
  original_start: number | null;
  revision_start: number | null;
}

/** GET /v1/transcripts/{id}/revisions/current/diff: the author's current version against the original. */
export function fetchChanges(id: string): Promise<{ changes: RevisionChange[]; unchanged_words: number }> {
  return apiFetch(`/v1/transcripts/${encodeURIComponent(id)}/revisions/current/diff`);
}

export interface RevisionEntry {
  /** `original` for the transcript as the source gave it. */
  id: string;
  created_at: string | null;
  segment_count: number;
  current: boolean;
}

/** GET /v1/transcripts/{id}/revisions: the saved revisions (newest first) and the original. */
export function fetchRevisions(id: string): Promise<{ revisions: RevisionEntry[]; kept: number }> {
  return apiFetch(`/v1/transcripts/${encodeURIComponent(id)}/revisions`);
}

/** GET /v1/transcripts/{id}?revision=…: one saved revision (or `original`), as JSON. */
export function fetchRevision(id: string, revision: string): Promise<Transcript> {
  const query = new URLSearchParams({ format: "json", revision });
  return apiFetch<Transcript>(`/v1/transcripts/${encodeURIComponent(id)}?${query}`);
}
