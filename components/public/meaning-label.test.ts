import { describe, expect, it } from "vitest";
import { meaningLabel, nothingClose } from "./meaning-label";

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
