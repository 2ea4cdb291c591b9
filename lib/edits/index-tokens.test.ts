import { describe, expect, it } from "vitest";
import { indexTokens, mostIndexTokens } from "@/lib/edits/index-tokens";

describe("indexTokens", () => {
  it("counts the words of ordinary text", () => {
    // "it's" and "3.5" are two runs each: at most what the index makes of them.
    expect(indexTokens("The quick brown fox, it's 3.5 m away.")).toBe(10);
  });

  it("counts each part of comma- and hyphen-joined words, and a compound once more", () => {
    expect(indexTokens("ab,cd,ef")).toBe(3);
    expect(indexTokens("ab-cd-ef")).toBe(4);
    expect(indexTokens(Array.from({ length: 1000 }, (_, i) => `w${i}`).join("-"))).toBe(1001);
  });

  it("counts a CJK run as its word and its pairs of adjacent characters", () => {
    expect(indexTokens("比特币")).toBe(1 + 2);
    expect(indexTokens("我")).toBe(1 + 1);
    expect(indexTokens("一".repeat(5000))).toBe(1 + 4999);
  });

  it("keeps combining marks inside their word", () => {
    expect(indexTokens("e\u0301te\u0301 cafe\u0301")).toBe(2);
  });

  it("counts nothing in what is not text", () => {
    expect(indexTokens(undefined)).toBe(0);
    expect(indexTokens("  ... ")).toBe(0);
  });
});

describe("mostIndexTokens", () => {
  const texts = [
    "The quick brown fox, it's 3.5 m away.",
    "ab,cd,ef",
    "ab-cd-ef a--b-c d-e--f-g -x- y-",
    Array.from({ length: 1000 }, (_, i) => `w${i}`).join("-"),
    "比特币 我 一一一一一 ab比特-cd",
    "e\u0301te\u0301 cafe\u0301 naïve—über “quoted” …",
    "  ... ",
    "a\u2014b c\u00e9-d\u00e9 \ud840\udc00\ud840\udc01",
  ];

  it("is never less than what the index makes of a text", () => {
    for (const text of texts) expect(mostIndexTokens(text), text).toBeGreaterThanOrEqual(indexTokens(text));
  });

  it("is what the index makes of ASCII text and of hyphen-joined words", () => {
    expect(mostIndexTokens("The quick brown fox, it's 3.5 m away.")).toBe(10);
    expect(mostIndexTokens("ab-cd-ef")).toBe(4);
    expect(mostIndexTokens(texts[3]!)).toBe(1001);
  });

  it("counts a CJK run as one more than the index does", () => {
    expect(mostIndexTokens("一".repeat(5000))).toBe(5001);
  });
});
