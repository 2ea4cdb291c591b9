import { describe, expect, it } from "vitest";
import { describeUsage } from "@/lib/usage/describe-usage";

describe("describeUsage", () => {
  it("says plainly that there is no limit, with what was used", () => {
    expect(describeUsage({ tier: "free", used_seconds: 243, limit_seconds: 2_147_483_647, unlimited: true })).toBe(
      "No limit on this server: 4 min 3 s transcribed this period.",
    );
  });

  it("gives a limit's figures as people say them", () => {
    expect(
      describeUsage({
        tier: "free",
        used_seconds: 720,
        limit_seconds: 900,
        unlimited: false,
        current_period_end: "2026-12-01T00:00:00.000Z",
      }),
    ).toBe("Free plan: 12 min of 15 min used, 3 min left; the period ends 2026-12-01.");
    expect(describeUsage({ tier: "pro", used_seconds: 4283, limit_seconds: 3600 })).toBe(
      "Pro plan: 1 h 11 min of 1 h used, 0 s left.",
    );
  });
});
