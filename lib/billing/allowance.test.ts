import { afterEach, describe, expect, it, vi } from "vitest";

// The paid tiers' allowances are settings (lib/usage/allowance.ts reads them when asked).

describe("tier allowances", () => {
  afterEach(() => {
    delete process.env.PRO_ALLOWANCE_SECONDS;
    delete process.env.ULTRA_ALLOWANCE_SECONDS;
  });

  it("default to 900 s, 36,000 s and 180,000 s", async () => {
    vi.resetModules();
    const { TIER_ALLOWANCE_SECONDS } = await import("@/lib/usage/allowance");
    expect({ ...TIER_ALLOWANCE_SECONDS }).toEqual({ free: 900, pro: 36_000, ultra: 180_000 });
  });

  it("follow PRO_ALLOWANCE_SECONDS and ULTRA_ALLOWANCE_SECONDS", async () => {
    process.env.PRO_ALLOWANCE_SECONDS = "7200";
    process.env.ULTRA_ALLOWANCE_SECONDS = "72000";
    vi.resetModules();
    const { TIER_ALLOWANCE_SECONDS } = await import("@/lib/usage/allowance");
    expect(TIER_ALLOWANCE_SECONDS.pro).toBe(7200);
    expect(TIER_ALLOWANCE_SECONDS.ultra).toBe(72_000);
    const { parseEnv } = await import("@/lib/env");
    expect(() => parseEnv({ PRO_ALLOWANCE_SECONDS: "0" })).toThrow(/PRO_ALLOWANCE_SECONDS/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_test_public" })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
