import { TIER_LABELS } from "@/lib/browser/billing";
import type { Subscription } from "@/lib/browser/transcripts";

/** What came of Stripe Checkout, on the way back from it (`?checkout=`). */
export function CheckoutBanner({
  result,
  sub,
  waiting,
}: {
  result: "success" | "canceled";
  sub: Subscription;
  waiting: boolean;
}) {
  if (result === "canceled") {
    return (
      <p
        role="status"
        data-testid="checkout-banner"
        className="rounded-lg border border-stone-300 bg-white p-4 text-sm"
      >
        Checkout was canceled. Nothing was charged.
      </p>
    );
  }
  const active = sub.tier !== "free";
  return (
    <p
      role="status"
      data-testid="checkout-banner"
      className="rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900"
    >
      {active
        ? `Thank you! You are on ${TIER_LABELS[sub.tier]} now.`
        : waiting
          ? "Payment received. Activating your plan…"
          : "Payment received, but it has not been confirmed yet. Refresh in a minute, or use “Check payment status”."}
    </p>
  );
}
