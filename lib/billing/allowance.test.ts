import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { allowanceShortSentence, tierAllowances } from "@/lib/usage/allowance";

// Allowances belong to the operator (lib/usage/allowance.ts): settings, else the hosted service's figures
// when billing is on, else no limit.

const billingOn = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PRICE_PRO: "pro", STRIPE_PRICE_ULTRA: "ultra" };

describe("tier allowances", () => {
  it("with billing off and nothing set: no limit on any tier", () => {
    expect(tierAllowances(parseEnv({}))).toEqual({ free: null, pro: null, ultra: null });
    // Half the Stripe settings is still billing off.
    expect(tierAllowances(parseEnv({ STRIPE_SECRET_KEY: "sk_test_x" })).free).toBeNull();
  });

  it("with billing on and nothing set: 900 s, 36,000 s and 180,000 s", () => {
    expect(tierAllowances(parseEnv(billingOn))).toEqual({ free: 900, pro: 36_000, ultra: 180_000 });
  });

  it("follow FREE_, PRO_ and ULTRA_ALLOWANCE_SECONDS, billing on or off", () => {
    const set = { FREE_ALLOWANCE_SECONDS: "600", PRO_ALLOWANCE_SECONDS: "7200", ULTRA_ALLOWANCE_SECONDS: "72000" };
    expect(tierAllowances(parseEnv(set))).toEqual({ free: 600, pro: 7200, ultra: 72_000 });
    expect(tierAllowances(parseEnv({ ...billingOn, ...set }))).toEqual({ free: 600, pro: 7200, ultra: 72_000 });
    expect(tierAllowances(parseEnv({ FREE_ALLOWANCE_SECONDS: "600" }))).toEqual({ free: 600, pro: null, ultra: null });
    expect(() => parseEnv({ FREE_ALLOWANCE_SECONDS: "0" })).toThrow(/FREE_ALLOWANCE_SECONDS/);
    expect(() => parseEnv({ PRO_ALLOWANCE_SECONDS: "0" })).toThrow(/PRO_ALLOWANCE_SECONDS/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: "pk_test_public" })).toThrow(/STRIPE_SECRET_KEY/);
  });

  it("a refusal says the duration as people do, and offers an upgrade only where one can be bought", () => {
    expect(allowanceShortSentence("This transcript is", 4283, "free", parseEnv(billingOn))).toBe(
      "This transcript is 1 h 11 min long, which is more than what is left of your monthly allowance. Upgrade your plan or wait for the next period.",
    );
    const off = allowanceShortSentence(
      "This source is about",
      243,
      "free",
      parseEnv({ FREE_ALLOWANCE_SECONDS: "900" }),
    );
    expect(off).toBe(
      "This source is about 4 min 3 s long, which is more than what is left of your monthly allowance. This server's operator set the free allowance (FREE_ALLOWANCE_SECONDS); it renews at the start of the next period.",
    );
    expect(off).not.toMatch(/Upgrade/);
  });
});
