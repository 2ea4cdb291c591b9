import { describe, expect, it } from "vitest";
import { CJK_MAX_BIGRAMS } from "@/lib/search/cjk";
import {
  collapseNegations,
  positiveLexemes,
  prefixLexemes,
  parsedWords,
  queryProblem,
  queryTerms,
  SEARCH_MAX_TERMS,
} from "@/lib/search/query-terms";

describe("queryTerms", () => {
  it("counts words and phrases to find and -excluded ones, as websearch_to_tsquery reads them", () => {
    expect(queryTerms("grit")).toEqual({ positive: 1, negative: 0 });
    expect(queryTerms('grit -chicago "growth mindset" -"fixed mindset" OR talent')).toEqual({
      positive: 3,
      negative: 2,
    });
    expect(queryTerms("state-of-the-art well-known")).toEqual({ positive: 2, negative: 0 });
    expect(queryTerms("-zz -yy")).toEqual({ positive: 0, negative: 2 });
    expect(queryTerms("!-zz")).toEqual({ positive: 0, negative: 1 });
    expect(queryTerms("比特币 -以太坊")).toEqual({ positive: 1, negative: 1 });
    expect(queryTerms('"unclosed phrase')).toEqual({ positive: 1, negative: 0 });
    expect(queryTerms("- marathon")).toEqual({ positive: 0, negative: 1 });
    expect(queryTerms("grit - marathon")).toEqual({ positive: 1, negative: 1 });
    expect(queryTerms('- "a phrase" grit')).toEqual({ positive: 1, negative: 1 });
  });

  it("counts no term for operators and punctuation alone", () => {
    expect(queryTerms("- OR -")).toEqual({ positive: 0, negative: 0 });
    expect(queryTerms('"""')).toEqual({ positive: 0, negative: 0 });
    expect(queryTerms("-".repeat(33))).toEqual({ positive: 0, negative: 0 });
    expect(queryTerms("🏃 … !!")).toEqual({ positive: 0, negative: 0 });
  });
});

describe("queryProblem", () => {
  it("refuses a query with nothing to find: only -excluded words, or no word at all", () => {
    expect(queryProblem(" -zz".repeat(125))).toMatch(/at least one word to find/);
    expect(queryProblem("-zz")).toMatch(/at least one word to find/);
    expect(queryProblem("-".repeat(33))).toMatch(/at least one word to find/);
    expect(queryProblem("- ".repeat(40))).toMatch(/at least one word to find/);
    expect(queryProblem("- OR -")).toMatch(/at least one word to find/);
  });

  it("refuses more than SEARCH_MAX_TERMS terms, excluded ones included", () => {
    expect(queryProblem(Array.from({ length: SEARCH_MAX_TERMS }, (_, i) => `w${i}`).join(" "))).toBeNull();
    expect(queryProblem(Array.from({ length: SEARCH_MAX_TERMS + 1 }, (_, i) => `w${i}`).join(" "))).toMatch(
      /at most 32/,
    );
    expect(queryProblem(`grit${" -zz".repeat(SEARCH_MAX_TERMS)}`)).toMatch(/at most 32/);
  });

  it("accepts ordinary queries", () => {
    for (const q of ["grit", "grit -chicago", '"growth mindset"', "talent OR effort", "比特币", "the of and is"])
      expect(queryProblem(q), q).toBeNull();
  });
});

describe("collapseNegations", () => {
  it("cuts every run of '-' to one, whatever stands between them, keeping the words", () => {
    expect(collapseNegations("-".repeat(40))).toBe("-");
    expect(collapseNegations("grit " + "- ".repeat(40))).toBe("grit - ");
    expect(collapseNegations("grit " + "-!".repeat(40) + "x")).toBe("grit -x");
    expect(collapseNegations("grit " + "-(&|<".repeat(40) + " x")).toBe("grit - x");
    expect(collapseNegations("a--b")).toBe("a-b");
  });

  it("leaves single negations, hyphens and phrases alone", () => {
    for (const q of ['grit -chicago -"fixed mindset"', "state-of-the-art", "x - y", '-"a" -"b"'])
      expect(collapseNegations(q), q).toBe(q);
  });
});

describe("positiveLexemes", () => {
  it("answers each quoted lexeme once, its doubled quotes undone, and nothing of the operators", () => {
    expect(positiveLexemes("'deep' <-> 'ocean'")).toEqual(["deep", "ocean"]);
    expect(positiveLexemes("'sea' | 'big' <-> 'wave' & 'sea'")).toEqual(["sea", "big", "wave"]);
    expect(positiveLexemes("'a<->b' <2> 'it''s <3>'")).toEqual(["a<->b", "it's <3>"]);
    expect(positiveLexemes("T")).toEqual([]);
  });
});

describe("the words the parser reads", () => {
  it("refuses one term that the parser splits into more than SEARCH_MAX_WORDS words", () => {
    expect(parsedWords("state-of-the-art grit")).toBe(6);
    expect(parsedWords("比特币 mempool")).toBe(3);
    expect(queryProblem("中a".repeat(250))).toMatch(/at most 100 words/);
    expect(queryProblem("a-".repeat(249) + "a")).toMatch(/at most 100 words/);
    expect(queryProblem("比特a".repeat(166))).toMatch(/at most 100 words/);
  });

  it("accepts a quoted sentence and a long CJK run (its bigrams are capped)", () => {
    const sentence = `"${"grit is living life like it is a marathon not a sprint ".repeat(6).trim()}"`;
    expect(parsedWords(sentence)).toBe(72);
    expect(queryProblem(sentence)).toBeNull();
    expect(queryProblem("比特币闪电网络".repeat(72).slice(0, 500))).toBeNull();
    expect(parsedWords("比特币闪电网络".repeat(72).slice(0, 500))).toBe(CJK_MAX_BIGRAMS);
  });
});

describe("prefixLexemes", () => {
  it("are the lexemes read as prefixes", () => {
    expect(prefixLexemes("'rocket' & 'laun':*")).toEqual(["laun"]);
    expect(prefixLexemes("'闪':* | 'it''s':*AB")).toEqual(["闪", "it's"]);
    expect(prefixLexemes("'rocket' <-> 'launch'")).toEqual([]);
  });
});
