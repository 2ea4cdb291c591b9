"use client";

import {
  discountLabel,
  discountsFor,
  formatAllowance,
  formatPrice,
  planAction,
  TIER_LABELS,
  TIERS,
  type PlanAction,
  type PlansResponse,
  type Tier,
} from "@/lib/browser/billing";
import type { Subscription } from "@/lib/browser/transcripts";

/** Every plan with its price, allowance and discounts, and the action that leads to it from the current one. */
export function PlanCards({
  sub,
  plans,
  plansError,
  allowances,
  busy,
  onAction,
}: {
  sub: Subscription;
  plans: PlansResponse | undefined;
  plansError: boolean;
  allowances: Record<Tier, number | null>;
  busy: boolean;
  onAction: (action: Exclude<PlanAction, null>) => void;
}) {
  return (
    <section aria-label="Plans" className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">Plans</h2>
      {plansError && <p className="text-sm text-red-700">Prices could not be loaded.</p>}
      {plans?.source === "static" && (
        <p className="text-sm text-stone-500">
          Stripe did not answer, so these are the list prices; checkout shows the exact amount.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        {TIERS.map((tier) => {
          const plan = plans?.plans.find((p) => p.tier === tier);
          const discounts = discountsFor(plans?.discounts ?? [], tier);
          const current = sub.tier === tier;
          const action = planAction(sub, tier);
          return (
            <article
              key={tier}
              data-testid={`plan-${tier}`}
              aria-current={current ? "true" : undefined}
              className={`flex flex-col gap-3 rounded-lg border bg-white p-5 ${current ? "border-stone-900 ring-1 ring-stone-900" : "border-stone-200"}`}
            >
              <div className="flex items-baseline justify-between gap-2">
                <h3 className="font-semibold">{TIER_LABELS[tier]}</h3>
                {current && <span className="rounded-full bg-stone-900 px-2 py-0.5 text-xs text-white">Current</span>}
                {sub.pending_tier === tier && (
                  <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs text-sky-900">Scheduled</span>
                )}
              </div>
              <p data-testid="plan-price" className="text-2xl font-semibold">
                {plan ? formatPrice(plan) : "…"}
              </p>
              <p data-testid="plan-allowance" className="text-sm text-stone-600">
                {allowances[tier] === null
                  ? "No limit on this server"
                  : `${formatAllowance(allowances[tier])} of audio a ${plan?.interval ?? "month"}`}
              </p>
              {discounts.length > 0 && (
                <ul className="flex flex-col gap-1 text-xs">
                  {discounts.map((discount, index) => (
                    <li
                      key={`${discount.code ?? discount.name ?? "discount"}-${index}`}
                      data-testid="plan-discount"
                      className="rounded bg-emerald-50 px-2 py-1 text-emerald-900"
                    >
                      {discountLabel(discount)}
                      {discount.code && (
                        <>
                          {" "}
                          with code <code className="font-mono font-semibold">{discount.code}</code>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              <div className="mt-auto pt-2">
                {action && <PlanButton action={action} busy={busy} onAction={onAction} />}
              </div>
            </article>
          );
        })}
      </div>
    </section>
  );
}

function PlanButton({
  action,
  busy,
  onAction,
}: {
  action: Exclude<PlanAction, null>;
  busy: boolean;
  onAction: (action: Exclude<PlanAction, null>) => void;
}) {
  const label =
    action.kind === "checkout" || action.kind === "upgrade"
      ? `Upgrade to ${TIER_LABELS[action.tier]}`
      : action.kind === "downgrade"
        ? `Switch to ${TIER_LABELS[action.tier]}`
        : "Cancel plan";
  const primary = action.kind === "checkout" || action.kind === "upgrade";
  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => onAction(action)}
      className={`w-full rounded-md px-4 py-2 text-sm disabled:opacity-50 ${primary ? "bg-stone-900 text-white hover:bg-stone-700" : "border border-stone-300 hover:bg-stone-100"}`}
    >
      {label}
    </button>
  );
}
