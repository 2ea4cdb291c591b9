import { describe, expect, it } from "vitest";
import { countMatches, editorReducer, initialEditorState, type EditorState } from "@/lib/browser/transcript-edits";
import type { Segment } from "@/lib/formats/types";

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

describe("editorReducer on a speaker-labelled transcript: every action keeps what it did not change", () => {
  const named: Segment[] = [
    {
      start: 0,
      end: 2,
      text: "welcome to the show",
      speaker: "Host",
      words: [
        { start: 0, end: 0.5, text: "welcome" },
        { start: 0.5, end: 0.7, text: "to" },
        { start: 0.7, end: 1, text: "the" },
        { start: 1, end: 2, text: "show" },
      ],
    },
    { start: 2.5, end: 4, text: "thanks for having me", speaker: "Guest" },
  ];
  const open = () => initialEditorState(named);
  const speakers = (state: EditorState) => state.segments.map((s) => s.speaker);

  it("text: the speaker stays, and so do the unchanged words' times", () => {
    const state = editorReducer(open(), { type: "set-text", index: 0, text: "welcome to the podcast" });
    expect(state.segments[0]).toMatchObject({ start: 0, end: 2, text: "welcome to the podcast", speaker: "Host" });
    expect(state.segments[0]!.words!.slice(0, 3)).toEqual(named[0]!.words!.slice(0, 3));
    expect(state.segments[0]!.words![3]).toEqual({ start: 1, end: 2, text: "podcast" });
    expect(state.segments[1]).toBe(named[1]);
  });

  it("times and nudge: the speaker, the text and every word stay (clamped into the new times)", () => {
    let state = editorReducer(open(), { type: "set-times", index: 1, start: 2.2, end: 4 });
    expect(state.segments[1]).toEqual({ ...named[1], start: 2.2 });
    state = editorReducer(state, { type: "nudge", index: 0, edge: "end", by: -0.5, maxEnd: 4 });
    expect(state.segments[0]).toMatchObject({ start: 0, end: 1.5, text: named[0]!.text, speaker: "Host" });
    expect(state.segments[0]!.words!.at(-1)).toEqual({ start: 1, end: 1.5, text: "show" });
    expect(speakers(state)).toEqual(["Host", "Guest"]);
  });

  it("split: both halves keep the speaker and their own words; the typed text is committed first", () => {
    const state = editorReducer(open(), { type: "split", index: 0, text: "welcome to the show", at: 10 });
    expect(state.segments.map((s) => [s.text, s.speaker, s.start, s.end])).toEqual([
      ["welcome to", "Host", 0, 0.7],
      ["the show", "Host", 0.7, 2],
      ["thanks for having me", "Guest", 2.5, 4],
    ]);
    expect(state.segments[0]!.words).toEqual(named[0]!.words!.slice(0, 2));
    expect(state.segments[1]!.words).toEqual(named[0]!.words!.slice(2));
    const typed = editorReducer(open(), { type: "split", index: 1, text: "thanks for having us", at: 6 });
    expect(typed.segments.slice(1).map((s) => [s.text, s.speaker])).toEqual([
      ["thanks", "Guest"],
      ["for having us", "Guest"],
    ]);
    expect(editorReducer(open(), { type: "split", index: 1, text: named[1]!.text, at: 0 }).segments).toBe(named);
  });

  it("merge: a split line joins back as it was; two speakers' lines keep the first's speaker", () => {
    const split = editorReducer(open(), { type: "split", index: 0, text: named[0]!.text, at: 10 });
    const joined = editorReducer(split, { type: "merge-previous", index: 1, text: "the show" });
    expect(joined.segments).toEqual(named);
    const both = editorReducer(open(), { type: "merge-previous", index: 1, text: named[1]!.text });
    expect(both.segments).toEqual([
      { start: 0, end: 4, text: "welcome to the show thanks for having me", speaker: "Host" },
    ]);
    expect(editorReducer(open(), { type: "merge-previous", index: 0, text: named[0]!.text })).toEqual(open());
  });

  it("replace all: changed lines keep their speakers", () => {
    const state = editorReducer(open(), { type: "replace-all", find: "the", replace: "our" });
    expect(state.segments[0]).toMatchObject({ text: "welcome to our show", speaker: "Host" });
    expect(state.segments[0]!.words!.map((w) => w.start)).toEqual([0, 0.5, 0.7, 1]);
    expect(speakers(state)).toEqual(["Host", "Guest"]);
    expect(countMatches(named, "THE")).toBe(1);
  });
});
