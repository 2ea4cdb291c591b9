// Browser-side helpers for the Billing page: the billing API calls, their query keys, and how prices,
// discounts, allowances and subscription states are shown. Only types come from the server modules.

import type { DiscountInfo, PlanInfo, PlansResponse } from "@/lib/billing/schemas";
import type { SubscriptionResponse } from "@/lib/usage/schemas";
import { apiFetch } from "@/lib/browser/api";
import { isUpgrade } from "@/lib/billing/tiers";
import { spokenDuration } from "@/lib/formats/spoken-duration";
import { formatDate } from "@/lib/browser/dates";

export type { DiscountInfo, PlanInfo, PlansResponse };
export type Tier = SubscriptionResponse["tier"];
export type PaidTier = Exclude<Tier, "free">;

export const TIERS: readonly Tier[] = ["free", "pro", "ultra"];

export const TIER_LABELS: Record<Tier, string> = { free: "Free", pro: "Pro", ultra: "Ultra" };

/**
 * What the user is on, in words: their plan's name, or "No limit on this server" where no plan applies (billing
 * off and no allowance set: every account still carries the tier "free", which limits nothing there).
 */
export function planLabel(sub: Pick<SubscriptionResponse, "tier" | "unlimited">): string {
  return sub.unlimited ? "No limit on this server" : TIER_LABELS[sub.tier];
}

export const PLANS_KEY = ["plans"] as const;

export function fetchPlans(): Promise<PlansResponse> {
  return apiFetch<PlansResponse>("/v1/plans");
}

const post = <T>(path: string, body?: unknown) =>
  apiFetch<T>(
    path,
    body === undefined
      ? { method: "POST" }
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );

/** The operations the page offers. Each answers the subscription as it now stands, except the two links. */
export const billingApi = {
  checkout: (tier: PaidTier) => post<{ url: string }>("/v1/checkout", { tier }),
  portal: () => post<{ url: string }>("/v1/me/portal"),
  reconcile: () => post<SubscriptionResponse>("/v1/me/subscription/reconcile"),
  cancel: () => post<SubscriptionResponse>("/v1/me/subscription/cancel"),
  resume: () => post<SubscriptionResponse>("/v1/me/subscription/resume"),
  change: (tier: PaidTier) => post<SubscriptionResponse>("/v1/me/subscription/change", { tier }),
  undoChange: () => apiFetch<SubscriptionResponse>("/v1/me/subscription/change", { method: "DELETE" }),
};

/** 0 → "Free"; 900 usd month → "$9/month"; 2950 eur year → "€29.50/year". */
export function formatPrice(plan: Pick<PlanInfo, "amount" | "currency" | "interval">): string {
  if (plan.amount === 0) return "Free";
  if (plan.amount === null || !plan.currency) return "—";
  const price = formatMoney(plan.amount, plan.currency);
  return plan.interval ? `${price}/${plan.interval}` : price;
}

/** An amount in the currency's minor unit, without decimals when they are zero. */
export function formatMoney(minor: number, currency: string): string {
  const code = currency.toUpperCase();
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat("en-US", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    return `${(minor / 100).toFixed(2)} ${code}`;
  }
  const major = minor / 10 ** digits;
  const whole = Number.isInteger(major);
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: code,
    minimumFractionDigits: whole ? 0 : digits,
    maximumFractionDigits: digits,
  }).format(major);
}

/** An allowance: 900 → "15 minutes", 36000 → "10 hours", 5400 → "1.5 hours", 60 → "1 minute"; null → "no limit". */
export function formatAllowance(seconds: number | null): string {
  if (seconds === null) return "no limit";
  const s = Math.max(0, seconds);
  if (s < 3600) {
    const minutes = Math.ceil(s / 60);
    return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  }
  const hours = Math.round((s / 3600) * 10) / 10;
  return `${hours.toLocaleString("en-US")} ${hours === 1 ? "hour" : "hours"}`;
}

/** Usage against the limit, in the unit of the limit: "12 min of 10 h" style, whole minutes when under an hour. */
export function formatUsage(used: number, limit: number): string {
  return `${formatAllowance(used)} of ${formatAllowance(limit)}`;
}

/** Seconds left this period, or null when no limit applies on this server. */
export function allowanceLeft(sub: Pick<SubscriptionResponse, "limit_seconds" | "used_seconds" | "unlimited">) {
  return sub.unlimited ? null : Math.max(0, sub.limit_seconds - sub.used_seconds);
}

/** The usage line of the billing page: "12 minutes of 15 minutes used", or the plain truth when unlimited. */
export function usageSummary(sub: Pick<SubscriptionResponse, "limit_seconds" | "used_seconds" | "unlimited">): string {
  return sub.unlimited
    ? `No limit on this server: ${spokenDuration(sub.used_seconds)} transcribed this period`
    : `${formatUsage(sub.used_seconds, sub.limit_seconds)} used`;
}

/** "20% off" / "$5 off", with the code and how long it runs when known. */
export function discountLabel(discount: DiscountInfo): string {
  const off =
    discount.type === "percent" && discount.basis_points !== null
      ? `${(discount.basis_points / 100).toLocaleString("en-US")}% off`
      : discount.type === "amount" && discount.amount !== null && discount.currency
        ? `${formatMoney(discount.amount, discount.currency)} off`
        : "Discount";
  const name = discount.name ? `${discount.name}: ` : "";
  const until = discount.ends_at ? ` until ${formatDate(discount.ends_at)}` : "";
  return `${name}${off}${until}`;
}

/** The discounts that apply to a tier (one with no tiers listed applies to every paid tier). */
export function discountsFor(discounts: DiscountInfo[], tier: Tier): DiscountInfo[] {
  if (tier === "free") return [];
  return discounts.filter((d) => d.tiers.length === 0 || d.tiers.includes(tier));
}

/** The one date format (lib/browser/dates.ts), for the billing pages. */
export { formatDate };

/** A payment problem the user must act on, or null. */
export function paymentWarning(paymentState: string | null): string | null {
  switch (paymentState) {
    case null:
    case "ok":
      return null;
    case "incomplete":
      return "Your first payment has not gone through yet. Complete it in the billing portal to start your plan.";
    case "unpaid":
      return "Your subscription is unpaid: Stripe gave up retrying the payment. Update your payment method in the billing portal.";
    default:
      return "Your last payment failed. Update your payment method in the billing portal; Stripe will try again.";
  }
}

/** What the action on a plan card does for someone on `current`, or null for the current plan itself. */
export type PlanAction =
  | { kind: "checkout"; tier: PaidTier }
  | { kind: "upgrade"; tier: PaidTier }
  | { kind: "downgrade"; tier: PaidTier }
  | { kind: "cancel" }
  | null;

export function planAction(
  subscription: Pick<SubscriptionResponse, "tier" | "pending_tier" | "cancel_at_period_end">,
  tier: Tier,
): PlanAction {
  const current = subscription.tier;
  // The current plan has no action; a scheduled change is undone from the notice above the cards.
  if (tier === current) return null;
  if (current === "free") return tier === "free" ? null : { kind: "checkout", tier };
  if (tier === "free") return subscription.cancel_at_period_end ? null : { kind: "cancel" };
  if (isUpgrade(current, tier)) return { kind: "upgrade", tier };
  // A downgrade waits for the period end, which a scheduled cancel already claims: resume first.
  return subscription.pending_tier === tier || subscription.cancel_at_period_end ? null : { kind: "downgrade", tier };
}
