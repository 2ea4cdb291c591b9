import { describe, expect, it } from "vitest";
import { matchLabel, meaningLabel, nothingClose, someWordsOnly } from "./meaning-label";

describe("what a moment found by meaning is called", () => {
  it("says its closeness in words", () => {
    expect([meaningLabel("close"), meaningLabel("related"), meaningLabel("loose")]).toEqual([
      "close in meaning",
      "related in meaning",
      "loosely related",
    ]);
  });

  it("says nothing is close only when every moment is loosely related by meaning alone", () => {
    const loose = { matched: "meaning", closeness: "loose" } as const;
    expect(nothingClose([loose, loose])).toBe(true);
    expect(nothingClose([loose, { matched: "meaning", closeness: "related" }])).toBe(false);
    expect(nothingClose([loose, { matched: "words", closeness: null }])).toBe(false);
    expect(nothingClose([])).toBe(false);
  });
});

describe("how every moment matched, in words", () => {
  it("says words, some words, meaning or both, with the closeness where meaning found it", () => {
    expect(
      [
        { matched: "words", closeness: null },
        { matched: "some_words", closeness: null },
        { matched: "some_words", closeness: "related" },
        { matched: "meaning", closeness: "close" },
        { matched: "both", closeness: "loose" },
      ].map((m) => matchLabel(m as Parameters<typeof matchLabel>[0])),
    ).toEqual([
      "says the words",
      "says some of the words",
      "says some of the words, related in meaning",
      "close in meaning",
      "says the words, loosely related",
    ]);
  });

  it("says only some words were found when no moment holds them all nor is near in meaning", () => {
    const some = { matched: "some_words", closeness: null } as const;
    expect(someWordsOnly([some, some])).toBe(true);
    expect(someWordsOnly([some, { matched: "some_words", closeness: "close" }])).toBe(false);
    expect(someWordsOnly([some, { matched: "words", closeness: null }])).toBe(false);
    expect(someWordsOnly([])).toBe(false);
  });
});
