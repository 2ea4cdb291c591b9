import { describe, expect, it } from "vitest";
import { nextCheckAfterFailure, nextCheckAfterSuccess, nextCheckWhilePushed } from "@/lib/follows/schedule";

const now = new Date("2026-01-01T00:00:00Z");
const minutes = (d: Date) => (d.getTime() - now.getTime()) / 60_000;
const settings = { FOLLOW_CHECK_MINUTES: 60, FOLLOW_MAX_BACKOFF_HOURS: 4 };

describe("follow schedule", () => {
  it("jitters the interval by at most a tenth either way", () => {
    expect([0, 0.5, 1].map((r) => minutes(nextCheckAfterSuccess(now, () => r, settings)))).toEqual([54, 60, 66]);
  });

  it("doubles the wait per failure up to the cap", () => {
    expect([1, 2, 3, 4, 5, 30].map((f) => minutes(nextCheckAfterFailure(f, now, () => 0.5, settings)))).toEqual([
      60, 120, 240, 240, 240, 240,
    ]);
  });

  it("polls every FOLLOW_PUSH_POLL_HOURS while pushed, but an hour before the lease ends at the latest", () => {
    const lease = (hours: number) => new Date(now.getTime() + hours * 3600_000);
    const push = { FOLLOW_PUSH_POLL_HOURS: 24 };
    expect(minutes(nextCheckWhilePushed(lease(240), now, () => 0.5, push))).toBe(24 * 60);
    expect(minutes(nextCheckWhilePushed(lease(5), now, () => 0.5, push))).toBe(4 * 60);
    expect(minutes(nextCheckWhilePushed(lease(0.5), now, () => 0.5, push))).toBe(1);
  });
});
