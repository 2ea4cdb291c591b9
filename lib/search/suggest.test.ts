import { describe, expect, it } from "vitest";
import { likePrefix, plainWords, wordBegun } from "@/lib/search/suggest";

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
