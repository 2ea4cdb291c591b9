import { describe, expect, it } from "vitest";
import type { JudgedQuery } from "./fixtures/captions/judged-search";
import { judgeSearch, type JudgedPassage } from "./judged-figures";

const passage: JudgedPassage = { pid: 1n, track: "a", segFrom: 0, segTo: 1, text: "" };

describe("judgeSearch", () => {
  it("counts the paraphrases with no result apart from the off-topic questions with none", async () => {
    const queries = [
      { q: "p1", kind: "meaning", answers: [["a", 0, 1]] },
      { q: "p2", kind: "meaning", answers: [["a", 0, 1]] },
      { q: "o1", kind: "off-topic", answers: [] },
      { q: "o2", kind: "off-topic", answers: [] },
      { q: "o3", kind: "off-topic", answers: [] },
    ] as unknown as JudgedQuery[];
    // Every paraphrase answered, two of the three off-topic questions with nothing at all, one with some words.
    const f = await judgeSearch(queries, async (q) =>
      q.startsWith("p") ? [passage] : q === "o3" ? [{ ...passage, someWords: true }] : [],
    );
    expect(f.paraphrase.empty).toBe(0);
    expect(f.offTopicEmpty).toBeCloseTo(2 / 3);
    expect(f.offTopicNothing).toBe(1);
  });
});
