import { describe, expect, it } from "vitest";
import { billingPeriod } from "@/lib/usage/allowance";

const at = (iso: string) => new Date(iso);
const stored = { start: at("2026-10-05T12:00:00Z"), end: at("2026-11-05T12:00:00Z") };

describe("billingPeriod", () => {
  it("is the stored Stripe period while it lasts", () => {
    expect(billingPeriod(stored, at("2026-10-05T12:00:00Z"))).toEqual(stored);
    expect(billingPeriod(stored, at("2026-11-05T11:59:59Z"))).toEqual(stored);
  });

  it("rolls on by the period's length once the stored period has ended (renewal not synced yet)", () => {
    const length = stored.end.getTime() - stored.start.getTime();
    const next = billingPeriod(stored, at("2026-11-05T12:00:00Z"));
    expect(next).toEqual({ start: stored.end, end: new Date(stored.end.getTime() + length) });
    const third = billingPeriod(stored, new Date(stored.end.getTime() + length + 1));
    expect(third.start).toEqual(new Date(stored.end.getTime() + length));
    expect(third.end).toEqual(new Date(stored.end.getTime() + 2 * length));
  });

  it("leaves a degenerate period alone", () => {
    const empty = { start: stored.start, end: stored.start };
    expect(billingPeriod(empty, at("2027-01-01T00:00:00Z"))).toEqual(empty);
  });
});
