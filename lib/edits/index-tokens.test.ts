import { describe, expect, it } from "vitest";
import { indexTokens } from "@/lib/edits/index-tokens";

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
