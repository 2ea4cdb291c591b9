import { describe, expect, it } from "vitest";
import { editDistance, editsOf, likePrefix, plainWords, rankSpellings, wordBegun } from "@/lib/search/suggest";

describe("a word begun", () => {
  it("is the plain word the query ends on", () => {
    expect(wordBegun("growth minds")).toEqual({ before: "growth ", word: "minds" });
    expect(wordBegun("laun")).toEqual({ before: "", word: "laun" });
    expect(wordBegun("闪")).toEqual({ before: "", word: "闪" });
  });

  it("is nothing once the word is ended, quoted, excluded or an operator", () => {
    expect(wordBegun("growth ")).toBeNull();
    expect(wordBegun('"growth mind')).toBeNull();
    expect(wordBegun('"growth mind"')).toBeNull();
    expect(wordBegun("grit -mind")).toBeNull();
    expect(wordBegun("grit or")).toBeNull();
    expect(wordBegun("grit?")).toBeNull();
  });
});

describe("the words a suggestion may change", () => {
  it("are the plain words, where they stand", () => {
    expect(plainWords('marathn "growth mindset" -grit or persevere')).toEqual([
      { at: 0, word: "marathn" },
      { at: 34, word: "persevere" },
    ]);
  });

  it("leave CJK runs alone (found inside runs already)", () => {
    expect(plainWords("闪电网络 lightning")).toEqual([{ at: 5, word: "lightning" }]);
  });
});

describe("likePrefix", () => {
  it("escapes LIKE's own characters", () => {
    expect(likePrefix("50%_a\\")).toBe("50\\%\\_a\\\\%");
  });
});

describe("editDistance", () => {
  it("weighs each slip by how common it is", () => {
    expect(editDistance("people", "people")).toBe(0);
    expect(editDistance("recieve", "receive")).toBe(0.5); // two vowels swapped
    expect(editDistance("peopel", "people")).toBe(0.8); // other neighbours swapped
    expect(editDistance("accomodate", "accommodate")).toBe(0.5); // a letter undoubled
    expect(editDistance("seperate", "separate")).toBeCloseTo(0.7); // a vowel for a vowel
    expect(editDistance("gover", "cover")).toBe(1.5); // the first letter
    expect(editDistance("gover", "govern")).toBe(1);
    expect(editDistance("", "ab")).toBe(2.5);
  });

  it("is symmetric", () => {
    for (const [a, b] of [
      ["wierd", "wired"],
      ["tommorow", "tomorrow"],
      ["libary", "liberty"],
    ])
      expect(editDistance(a!, b!)).toBe(editDistance(b!, a!));
  });
});

describe("editsOf", () => {
  it("is every word one edit away, the word itself left out", () => {
    const edits = editsOf("wierd");
    expect(edits).toEqual(expect.arrayContaining(["weird", "wired", "wied", "wiered"]));
    expect(edits).not.toContain("wierd");
    expect(editsOf("a")).toEqual([]);
  });

  it("uses the word's own letters beyond the Latin alphabet", () => {
    expect(editsOf("мир")).toContain("миир");
  });
});

describe("rankSpellings", () => {
  it("prefers the nearest, then the commoner, reading a spelling as its configuration reads the word", () => {
    const reading = new Map([["english", "reciev"]]);
    const ranked = rankSpellings("recieve", reading, [
      { term: "reliev", config: "english", alike: 0.4, count: 9 },
      { term: "receiv", config: "english", alike: 0.3, count: 1 },
    ]);
    expect(ranked.map((s) => s.term)).toEqual(["receiv", "reliev"]);
    const common = rankSpellings("cat", new Map(), [
      { term: "cot", config: "simple", alike: 0.3, count: 2 },
      { term: "cut", config: "simple", alike: 0.3, count: 7 },
    ]);
    expect(common.map((s) => s.term)).toEqual(["cut", "cot"]);
  });
});
