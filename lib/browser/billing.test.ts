import { describe, expect, it } from "vitest";
import {
  discountLabel,
  discountsFor,
  formatAllowance,
  formatDate,
  formatMoney,
  formatPrice,
  paymentWarning,
  planAction,
  planLabel,
  allowanceLeft,
  usageSummary,
  type DiscountInfo,
} from "@/lib/browser/billing";

const discount = (fields: Partial<DiscountInfo>): DiscountInfo => ({
  name: null,
  code: null,
  type: null,
  basis_points: null,
  amount: null,
  currency: null,
  product_ids: [],
  tiers: [],
  starts_at: null,
  ends_at: null,
  ...fields,
});

describe("formatPrice and formatMoney", () => {
  it("shows whole amounts without decimals and others with the currency's digits", () => {
    expect(formatPrice({ amount: 900, currency: "usd", interval: "month" })).toBe("$9/month");
    expect(formatPrice({ amount: 2950, currency: "eur", interval: "year" })).toBe("€29.50/year");
    expect(formatPrice({ amount: 0, currency: "usd", interval: "month" })).toBe("Free");
    expect(formatPrice({ amount: null, currency: null, interval: null })).toBe("—");
    // JPY has no minor unit: 1200 is ¥1,200.
    expect(formatMoney(1200, "jpy")).toBe("¥1,200");
    expect(formatMoney(1999, "gbp")).toBe("£19.99");
  });

  it("falls back to the code for a currency Intl does not know", () => {
    expect(formatMoney(500, "zz!")).toBe("5.00 ZZ!");
  });
});

describe("formatAllowance", () => {
  it.each([
    [0, "0 minutes"],
    [59, "1 minute"],
    [900, "15 minutes"],
    [3599, "60 minutes"],
    [3600, "1 hour"],
    [5400, "1.5 hours"],
    [36_000, "10 hours"],
    [180_000, "50 hours"],
    [-5, "0 minutes"],
  ])("%d s → %s", (seconds, text) => {
    expect(formatAllowance(seconds)).toBe(text);
  });
});

describe("discounts", () => {
  it("labels percent and amount discounts with their name and end", () => {
    expect(discountLabel(discount({ name: "Launch", type: "percent", basis_points: 2000 }))).toBe("Launch: 20% off");
    expect(discountLabel(discount({ type: "percent", basis_points: 1250, ends_at: "2026-12-31T23:59:59.000Z" }))).toBe(
      "12.5% off until 31 Dec 2026",
    );
    expect(discountLabel(discount({ type: "amount", amount: 500, currency: "usd" }))).toBe("$5 off");
    expect(discountLabel(discount({}))).toBe("Discount");
  });

  it("applies a discount to the tiers it names, an unrestricted one to every paid tier, none to free", () => {
    const all = discount({ code: "ALL" });
    const ultraOnly = discount({ code: "ULTRA", tiers: ["ultra"] });
    expect(discountsFor([all, ultraOnly], "pro").map((d) => d.code)).toEqual(["ALL"]);
    expect(discountsFor([all, ultraOnly], "ultra").map((d) => d.code)).toEqual(["ALL", "ULTRA"]);
    expect(discountsFor([all, ultraOnly], "free")).toEqual([]);
  });
});

describe("formatDate", () => {
  it("uses the UTC day", () => {
    expect(formatDate("2026-12-05T23:30:00.000Z")).toBe("5 Dec 2026");
  });
});

describe("paymentWarning", () => {
  it("is null when payments are fine, and names the fix otherwise", () => {
    expect(paymentWarning(null)).toBeNull();
    expect(paymentWarning("ok")).toBeNull();
    for (const state of ["past_due", "payment_failed", "unpaid", "incomplete"])
      expect(paymentWarning(state)).toMatch(/billing portal/);
  });
});

describe("planAction", () => {
  const sub = (
    tier: "free" | "pro" | "ultra",
    extra: { pending_tier?: "pro" | "ultra" | null; cancel_at_period_end?: boolean } = {},
  ) => ({
    tier,
    pending_tier: extra.pending_tier ?? null,
    cancel_at_period_end: extra.cancel_at_period_end ?? false,
  });

  it("free users check out a paid tier", () => {
    expect(planAction(sub("free"), "free")).toBeNull();
    expect(planAction(sub("free"), "pro")).toEqual({ kind: "checkout", tier: "pro" });
    expect(planAction(sub("free"), "ultra")).toEqual({ kind: "checkout", tier: "ultra" });
  });

  it("paid users upgrade at once, downgrade at the period end, and cancel from the free card", () => {
    expect(planAction(sub("pro"), "ultra")).toEqual({ kind: "upgrade", tier: "ultra" });
    expect(planAction(sub("ultra"), "pro")).toEqual({ kind: "downgrade", tier: "pro" });
    expect(planAction(sub("pro"), "pro")).toBeNull();
    expect(planAction(sub("pro"), "free")).toEqual({ kind: "cancel" });
  });

  it("a scheduled downgrade is not offered again, and the current card has no action", () => {
    const pending = sub("ultra", { pending_tier: "pro" });
    expect(planAction(pending, "ultra")).toBeNull();
    expect(planAction(pending, "pro")).toBeNull();
    expect(planAction(pending, "free")).toEqual({ kind: "cancel" });
  });

  it("with a scheduled cancel: no second cancel and no downgrade, an upgrade still applies", () => {
    expect(planAction(sub("pro", { cancel_at_period_end: true }), "free")).toBeNull();
    expect(planAction(sub("ultra", { cancel_at_period_end: true }), "pro")).toBeNull();
    expect(planAction(sub("pro", { cancel_at_period_end: true }), "ultra")).toEqual({ kind: "upgrade", tier: "ultra" });
  });
});

describe("usage without a limit", () => {
  it("says there is no limit on this server instead of a plan's figures", () => {
    const unlimited = { limit_seconds: 2_147_483_647, used_seconds: 4283, unlimited: true };
    expect(usageSummary(unlimited)).toBe("No limit on this server: 1 h 11 min transcribed this period");
    expect(allowanceLeft(unlimited)).toBeNull();
    expect(formatAllowance(null)).toBe("no limit");
  });

  it("keeps a limit's figures where one applies", () => {
    const limited = { limit_seconds: 900, used_seconds: 1000, unlimited: false };
    expect(usageSummary(limited)).toBe("17 minutes of 15 minutes used");
    expect(allowanceLeft(limited)).toBe(0);
    expect(allowanceLeft({ ...limited, used_seconds: 300 })).toBe(600);
  });
});

describe("planLabel", () => {
  it("names the plan where a limit applies, and no plan where none does", () => {
    expect(planLabel({ tier: "free", unlimited: false })).toBe("Free");
    expect(planLabel({ tier: "pro", unlimited: false })).toBe("Pro");
    // Billing off and no allowance set: every account carries the tier "free", which limits nothing here.
    expect(planLabel({ tier: "free", unlimited: true })).toBe("No limit on this server");
  });
});
