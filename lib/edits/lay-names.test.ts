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
