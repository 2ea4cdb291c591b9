import { describe, expect, it } from "vitest";

import { diffBudget } from "@/lib/edits/word-diff";
import { textTurns } from "@/lib/captions/parse/text-turns";

import { answerNamesJob, layNames } from "./lay-names";

const recognised = [
  { start: 0, end: 2, text: "welcome to the show" },
  { start: 2, end: 4, text: "it is good to be here" },
  { start: 4, end: 6, text: "thanks for having me gilon" },
];

describe("layNames", () => {
  it("gives each recognised segment the speaker of the text it aligns with", () => {
    const turns = textTurns(
      "Travis: Welcome to the show. It is good to be here.\nGilon: Thanks for having me, Gilon.",
    )!;
    const laid = layNames(recognised, turns, diffBudget(1_000_000));
    expect(laid.applied).toBe(true);
    expect(laid.match).toBe(1);
    expect(laid.segments.map((s) => s.speaker)).toEqual(["Travis", "Travis", "Gilon"]);
    expect(laid.segments.map((s) => s.text)).toEqual(recognised.map((s) => s.text));
  });

  it("takes the majority in a segment whose words come from two speakers", () => {
    const turns = textTurns("Travis: Welcome to the show. It is.\nGilon: Good to be here thanks for having me gilon")!;
    expect(layNames(recognised, turns, diffBudget(1_000_000)).segments.map((s) => s.speaker)).toEqual([
      "Travis",
      "Gilon",
      "Gilon",
    ]);
  });

  it("splits a segment with word times at the turn; each piece keeps its words and their times", () => {
    const timed = [
      {
        start: 0,
        end: 3,
        text: "for years. then begin.",
        words: [
          { start: 0, end: 0.5, text: "for" },
          { start: 0.5, end: 1, text: "years." },
          { start: 2, end: 2.5, text: "then" },
          { start: 2.5, end: 3, text: "begin." },
        ],
      },
    ];
    const turns = textTurns("Gilon: For years.\nTravis: Then begin.")!;
    expect(layNames(timed, turns, diffBudget(1_000_000)).segments).toEqual([
      { start: 0, end: 1, text: "for years.", words: timed[0]!.words.slice(0, 2), speaker: "Gilon" },
      { start: 2, end: 3, text: "then begin.", words: timed[0]!.words.slice(2), speaker: "Travis" },
    ]);
  });

  it("leaves the segments untouched on a poor match", () => {
    const turns = textTurns("Travis: Something else entirely.\nGilon: Nothing alike here.")!;
    const laid = layNames(recognised, turns, diffBudget(1_000_000));
    expect(laid.applied).toBe(false);
    expect(laid.segments).toEqual(recognised);
  });
});

describe("answerNamesJob", () => {
  it("a text that names no one changes nothing (null: the recognised segments are stored as they are)", () => {
    expect(
      answerNamesJob({ kind: "names", segments: recognised, text: "Welcome to the show.\nThanks for having me." }),
    ).toBeNull();
  });
});
