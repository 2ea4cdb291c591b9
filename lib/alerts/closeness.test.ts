import { describe, expect, it } from "vitest";
import { DEFAULT_MEANING_PROFILE, DISTILLED_MEANING_PROFILE } from "@/lib/embeddings/meaning-profile";
import { alertCloseness, closenessCosine } from "./closeness";

describe("an alert's closeness in words", () => {
  it("is a point of the embedder's own scale: the search's related and close, very close above", () => {
    expect(
      (["related", "close", "very_close"] as const).map((w) => closenessCosine(DISTILLED_MEANING_PROFILE, w)),
    ).toEqual([0.72, 0.8, 0.84]);
    expect(closenessCosine(DEFAULT_MEANING_PROFILE, "very_close")).toBe(0.68);
  });

  it("takes a number as the cosine itself, and says very close when none is given", () => {
    expect(alertCloseness(DISTILLED_MEANING_PROFILE, 0.5)).toBe(0.5);
    expect(alertCloseness(DISTILLED_MEANING_PROFILE, "close")).toBe(0.8);
    expect(alertCloseness(DISTILLED_MEANING_PROFILE, undefined)).toBe(0.84);
  });
});
