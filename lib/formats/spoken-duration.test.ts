import { describe, expect, it } from "vitest";
import { spokenDuration } from "@/lib/formats/spoken-duration";

describe("spokenDuration", () => {
  it("says hours and minutes from an hour up, minutes and seconds under it", () => {
    expect(spokenDuration(4283)).toBe("1 h 11 min");
    expect(spokenDuration(9868)).toBe("2 h 44 min");
    expect(spokenDuration(243)).toBe("4 min 3 s");
    expect(spokenDuration(900)).toBe("15 min");
    expect(spokenDuration(45)).toBe("45 s");
    expect(spokenDuration(0)).toBe("0 s");
    expect(spokenDuration(7200)).toBe("2 h");
  });

  it("rounds to the nearest minute above an hour, and never says 60 min", () => {
    expect(spokenDuration(3629)).toBe("1 h");
    expect(spokenDuration(3630)).toBe("1 h 1 min");
    expect(spokenDuration(7199)).toBe("2 h");
    expect(spokenDuration(3599)).toBe("59 min 59 s");
  });

  it("reads odd input as zero", () => {
    expect(spokenDuration(-5)).toBe("0 s");
    expect(spokenDuration(Number.NaN)).toBe("0 s");
    expect(spokenDuration(12.6)).toBe("13 s");
  });
});
