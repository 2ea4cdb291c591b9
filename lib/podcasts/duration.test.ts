import { describe, expect, it } from "vitest";
import { durationSeconds, normalizeDuration } from "@/lib/podcasts/duration";

describe("normalizeDuration", () => {
  it.each([
    ["10475", "02:54:35"],
    ["74", "00:01:14"],
    ["05:07", "00:05:07"],
    ["1:09:50", "01:09:50"],
    ["01:09:50", "01:09:50"],
    [" 42:50 ", "00:42:50"],
    ["90.6", "00:01:31"],
    ["101:02:03", "101:02:03"],
    ["0", "00:00:00"],
  ])("%j → %s", (raw, expected) => {
    expect(normalizeDuration(raw)).toBe(expected);
  });

  it.each(["", "abc", "1:2:3:4", "-5", "10:75", "1.5:00", "99999999999", "1 hour"])("%j → null", (raw) => {
    expect(normalizeDuration(raw)).toBeNull();
  });

  it("round-trips to seconds", () => {
    expect(durationSeconds(normalizeDuration("1:09:50"))).toBe(4190);
    expect(durationSeconds(null)).toBe(0);
  });
});
