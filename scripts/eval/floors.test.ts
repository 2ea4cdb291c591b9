import { describe, expect, it } from "vitest";
import { judgedCorpora } from "../../test/fixtures/captions/judged-corpora";
import { checkFloors, figureName, RELEVANCE_FLOORS } from "./floors";

describe("the relevance evaluation's floors", () => {
  it("reads a figure whatever count its label carries", () => {
    expect(figureName("app search, fused: paraphrases (109) recall@10")).toBe(
      "app search, fused: paraphrases recall@10",
    );
  });

  it("holds a figure at or above its floor and fails one under it or missing", () => {
    const floors = [
      { figure: "a: paraphrases recall@10", floor: 0.7 },
      { figure: "b: keyword controls recall@10", floor: 1 },
      { figure: "c: missing", floor: 0.5 },
    ];
    const checked = checkFloors(
      { "a: paraphrases (60) recall@10": 0.71, "b: keyword controls recall@10": 0.99 },
      floors,
    );
    expect(checked.map((c) => c.held)).toEqual([true, false, false]);
    expect(checked[2]!.value).toBeUndefined();
  });

  it("holds a figure within its distance below another", () => {
    const floors = [{ figure: "lists: recall@10", floor: 0.05, below: "hnsw: recall@10" }];
    expect(checkFloors({ "lists: recall@10": 0.66, "hnsw: recall@10": 0.7 }, floors)[0]!.held).toBe(true);
    expect(checkFloors({ "lists: recall@10": 0.64, "hnsw: recall@10": 0.7 }, floors)[0]!.held).toBe(false);
    expect(checkFloors({ "lists: recall@10": 0.64 }, floors)[0]!.held).toBe(false);
  });

  it("judges the fused search on both databases and keywords alone on their controls", () => {
    const figures = RELEVANCE_FLOORS.map((f) => f.figure);
    expect(figures).toContain("app search, fused: paraphrases MRR@10");
    expect(figures).toContain("app search on PGlite (HNSW), fused: paraphrases MRR@10");
    expect(figures).toContain("app search, keyword-only: keyword controls recall@10");
  });

  it("holds the relevance goals on the corpus search is tuned on and records them on the one it is reported on", () => {
    const figures = {
      "app search, fused: paraphrases (60) recall@10": 0.55,
      "app search, keyword-only: keyword controls recall@10": 1,
    };
    const goal = (corpus: "tune" | "report") =>
      checkFloors(figures, RELEVANCE_FLOORS, corpus).find(
        (c) => c.figure === "app search, fused: paraphrases recall@10",
      )!;
    expect(goal("tune")).toMatchObject({ recorded: false, held: false });
    expect(goal("report")).toMatchObject({ recorded: true, held: false });
    for (const corpus of ["tune", "report"] as const) {
      const keywords = checkFloors(figures, RELEVANCE_FLOORS, corpus).filter((c) => c.figure.includes("keyword"));
      expect(keywords.length).toBeGreaterThan(0);
      expect(keywords.every((c) => !c.recorded)).toBe(true);
    }
  });

  it("holds alerts by meaning at the default closeness to 1 in 10 other transcripts on both corpora, by either stage", () => {
    const quiet = (stages: string) =>
      `alerts by meaning${stages} at the default closeness: the other transcripts it stays quiet on`;
    const figures = { [quiet("")]: 0.97, [quiet(", with the second stage,")]: 0.87 };
    for (const corpus of ["tune", "report"] as const) {
      const alerts = checkFloors(figures, RELEVANCE_FLOORS, corpus).filter((c) => c.figure.startsWith("alerts"));
      expect(alerts.map((c) => [c.held, c.recorded])).toEqual([
        [true, false],
        [false, false],
      ]);
    }
  });

  it("runs both corpora unless one is named", () => {
    expect(judgedCorpora(undefined).map((c) => c.name)).toEqual(["tune", "report"]);
    expect(judgedCorpora("both").map((c) => c.name)).toEqual(["tune", "report"]);
    expect(judgedCorpora("report").map((c) => c.name)).toEqual(["report"]);
    expect(() => judgedCorpora("held-out")).toThrow(/tune, report or both/);
  });
});
