import { describe, expect, it } from "vitest";

import {
  assemblyAiKeyterms,
  MAX_TERMS,
  vocabularyKey,
  vocabularySchema,
  whisperPrompt,
  WHISPER_PROMPT_CHARS,
} from "./vocabulary";

describe("vocabularySchema", () => {
  it("trims, collapses spaces and drops duplicates (ignoring case), keeping the order", () => {
    expect(vocabularySchema.parse(["  Kubernetes ", "PostgreSQL", "kubernetes", "Kelly   Byrne-Donoghue"])).toEqual([
      "Kubernetes",
      "PostgreSQL",
      "Kelly Byrne-Donoghue",
    ]);
  });

  it("refuses more than 100 terms, a term over 50 characters or 6 words, an empty one, control characters", () => {
    expect(vocabularySchema.safeParse(Array.from({ length: MAX_TERMS + 1 }, (_, i) => `t${i}`)).success).toBe(false);
    expect(vocabularySchema.safeParse(["x".repeat(51)]).success).toBe(false);
    expect(vocabularySchema.safeParse(["one two three four five six seven"]).success).toBe(false);
    expect(vocabularySchema.safeParse(["  "]).success).toBe(false);
    expect(vocabularySchema.safeParse(["bad\u0000term"]).success).toBe(false);
    expect(vocabularySchema.safeParse([42]).success).toBe(false);
    expect(vocabularySchema.safeParse(Array.from({ length: MAX_TERMS }, (_, i) => `t${i}`)).success).toBe(true);
  });
});

describe("each engine's form", () => {
  it("Whisper's prompt: terms joined, whole terms only, within the prompt window", () => {
    expect(whisperPrompt(["Kubernetes", "PostgreSQL"])).toBe("Kubernetes, PostgreSQL.");
    expect(whisperPrompt([])).toBeUndefined();
    const long = whisperPrompt(Array.from({ length: 100 }, (_, i) => `term-number-${i}-${"x".repeat(30)}`))!;
    expect(long.length).toBeLessThanOrEqual(WHISPER_PROMPT_CHARS + 1);
    expect(long.endsWith("x.")).toBe(true);
  });

  it("AssemblyAI's keyterms: the list itself", () => {
    expect(assemblyAiKeyterms(["A b", "c"])).toEqual(["A b", "c"]);
    expect(assemblyAiKeyterms(undefined)).toBeUndefined();
  });
});

describe("vocabularyKey", () => {
  it("empty for none (the shared entry); the same for the same terms in any order; another for another spelling", () => {
    expect(vocabularyKey(undefined)).toBe("");
    expect(vocabularyKey([])).toBe("");
    expect(vocabularyKey(["a", "b"])).toMatch(/^v-[0-9a-f]{16}$/);
    expect(vocabularyKey(["b", "a"])).toBe(vocabularyKey(["a", "b"]));
    expect(vocabularyKey(["A", "b"])).not.toBe(vocabularyKey(["a", "b"]));
  });
});
