import { describe, expect, it } from "vitest";
import { countMatches, editorReducer, initialEditorState } from "@/lib/browser/transcript-edits";

const segments = [
  { start: 0, end: 1, text: "Jon met Jon" },
  { start: 1, end: 2, text: "and jon left" },
];

describe("editorReducer", () => {
  it("edits a segment's text, replaces across the transcript, and undoes each step", () => {
    let state = initialEditorState(segments);
    state = editorReducer(state, { type: "set-text", index: 1, text: "and Jon left." });
    expect(state.dirty).toBe(true);
    expect(countMatches(state.segments, "jon")).toBe(3);
    state = editorReducer(state, { type: "replace-all", find: "jon", replace: "John" });
    expect(state.segments.map((s) => s.text)).toEqual(["John met John", "and John left."]);
    state = editorReducer(state, { type: "undo" });
    expect(state.segments.map((s) => s.text)).toEqual(["Jon met Jon", "and Jon left."]);
    state = editorReducer(state, { type: "undo" });
    expect(state.segments).toBe(segments);
    expect(editorReducer(state, { type: "undo" })).toBe(state);
  });

  it("an unchanged text or a replacement that finds nothing is not a step", () => {
    const state = initialEditorState(segments);
    expect(editorReducer(state, { type: "set-text", index: 0, text: "Jon met Jon" })).toBe(state);
    expect(editorReducer(state, { type: "replace-all", find: "zzz", replace: "y" })).toBe(state);
  });

  it("nudges a cue's start and end within its neighbours", () => {
    let state = initialEditorState([
      { start: 0, end: 1, text: "a" },
      { start: 1.2, end: 2, text: "b" },
      { start: 2.5, end: 3, text: "c" },
    ]);
    state = editorReducer(state, { type: "nudge", index: 1, edge: "start", by: -0.1, maxEnd: 3 });
    expect(state.segments[1]).toMatchObject({ start: 1.1, end: 2 });
    state = editorReducer(state, { type: "nudge", index: 1, edge: "start", by: -0.5, maxEnd: 3 });
    expect(state.segments[1]!.start).toBe(1); // the previous cue's end
    state = editorReducer(state, { type: "nudge", index: 1, edge: "end", by: 1, maxEnd: 3 });
    expect(state.segments[1]!.end).toBe(2.5); // the next cue's start
    state = editorReducer(state, { type: "nudge", index: 2, edge: "end", by: 1, maxEnd: 3 });
    expect(state.segments[2]!.end).toBe(3); // the media's end
    state = editorReducer(state, { type: "nudge", index: 0, edge: "start", by: 5, maxEnd: 3 });
    expect(state.segments[0]!.start).toBe(1); // not past its own end
  });

  it("saving clears dirty and keeps the undo stack", () => {
    let state = editorReducer(initialEditorState(segments), { type: "set-times", index: 0, start: 0.1, end: 1 });
    state = editorReducer(state, { type: "saved", segments: state.segments });
    expect(state.dirty).toBe(false);
    expect(state.past).toHaveLength(1);
  });
});
