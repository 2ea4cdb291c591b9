import { describe, expect, it } from "vitest";
import { countMatches, editorReducer, initialEditorState } from "@/lib/client/transcript-edits";

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

  it("saving clears dirty and keeps the undo stack", () => {
    let state = editorReducer(initialEditorState(segments), { type: "set-times", index: 0, start: 0.1, end: 1 });
    state = editorReducer(state, { type: "saved", segments: state.segments });
    expect(state.dirty).toBe(false);
    expect(state.past).toHaveLength(1);
  });
});
