import { describe, expect, it } from "vitest";
import { chargedSeconds, transcriptChargeSeconds } from "@/lib/usage/charged-seconds";

describe("what one item is charged", () => {
  it("rounds each item up to whole seconds, never below zero", () => {
    expect(chargedSeconds(61.2)).toBe(62);
    expect(chargedSeconds(60)).toBe(60);
    expect(chargedSeconds(-3)).toBe(0);
    expect(chargedSeconds(Number.NaN)).toBe(0);
  });

  it("charges a transcript its media's stated length, or its own where that is longer or nothing is stated", () => {
    expect(transcriptChargeSeconds(3, 61)).toBe(61);
    expect(transcriptChargeSeconds(90.5, 61)).toBe(91);
    expect(transcriptChargeSeconds(2.4)).toBe(3);
  });
});
