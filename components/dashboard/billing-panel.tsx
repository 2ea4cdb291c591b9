"use client";

// The billing page's interactive part: the current plan, the plan cards and the confirmation dialog, with
// the wait for Stripe's webhook after Checkout. One file because its pieces share the panel's state (the
// pending action, the activation wait) through props and are used nowhere else.

import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  billingApi,
  discountLabel,
  discountsFor,
  fetchPlans,
  formatAllowance,
  formatDate,
  formatPrice,
  planLabel,
  usageSummary,
  paymentWarning,
  planAction,
  PLANS_KEY,
  TIER_LABELS,
  TIERS,
  type PaidTier,
  type PlanAction,
  type PlansResponse,
  type Tier,
} from "@/lib/client/billing";
import { fetchSubscription, SUBSCRIPTION_KEY, type Subscription } from "@/lib/client/transcripts";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";

/** How long the page waits for Stripe's webhook after Checkout before asking Stripe itself. */
const ACTIVATION_WAIT_MS = 10_000;
const ACTIVATION_POLL_MS = 1_000;

type Operation =
  | { kind: "checkout" | "upgrade" | "downgrade"; tier: PaidTier }
  | { kind: "portal" | "reconcile" | "cancel" | "resume" | "undo-change" };

/** Operations that change what the user pays, confirmed before they are sent. */
type Confirmable = { kind: "upgrade" | "downgrade"; tier: PaidTier } | { kind: "cancel" };

function run(operation: Operation): Promise<{ url: string } | Subscription> {
  switch (operation.kind) {
    case "checkout":
      return billingApi.checkout(operation.tier);
    case "portal":
      return billingApi.portal();
    case "reconcile":
      return billingApi.reconcile();
    case "cancel":
      return billingApi.cancel();
    case "resume":
      return billingApi.resume();
    case "upgrade":
    case "downgrade":
      return billingApi.change(operation.tier);
    case "undo-change":
      return billingApi.undoChange();
  }
}

export function BillingPanel({
  billingEnabled,
  allowances,
  checkout,
}: {
  billingEnabled: boolean;
  allowances: Record<Tier, number | null>;
  /** `?checkout=` on the way back from Stripe Checkout. */
  checkout: "success" | "canceled" | null;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const [activationTimedOut, setActivationTimedOut] = useState(false);
  const waitingForActivation = checkout === "success" && !activationTimedOut;

  const subscription = useQuery({
    queryKey: SUBSCRIPTION_KEY,
    queryFn: fetchSubscription,
    // Back from Checkout, the webhook that makes the plan paid may still be on its way.
    refetchInterval: (query) =>
      waitingForActivation && query.state.data?.tier === "free" ? ACTIVATION_POLL_MS : false,
  });
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: fetchPlans, staleTime: 60_000, enabled: billingEnabled });

  const operation = useMutation({
    mutationFn: run,
    onSuccess: (answer) => {
      setConfirming(null);
      if ("url" in answer) window.location.assign(answer.url);
      else queryClient.setQueryData(SUBSCRIPTION_KEY, answer);
    },
  });

  // No webhook within the wait: ask Stripe directly (reconcile) once.
  const { mutate } = operation;
  const stillFree = subscription.data?.tier === "free";
  const reconciled = useRef(false);
  useEffect(() => {
    if (!waitingForActivation || !stillFree) return;
    const timer = setTimeout(() => {
      setActivationTimedOut(true);
      if (!reconciled.current) {
        reconciled.current = true;
        mutate({ kind: "reconcile" });
      }
    }, ACTIVATION_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waitingForActivation, stillFree, mutate]);

  if (subscription.isPending) return <p className="text-stone-500">Loading…</p>;
  if (subscription.isError)
    return (
      <p role="alert" className="text-red-700">
        {subscription.error.message}
      </p>
    );
  const sub = subscription.data;
  const busy = operation.isPending;
  const perform = (next: Operation) => mutate(next);
  const warning = billingEnabled ? paymentWarning(sub.payment_state) : null;

  return (
    <div className="flex flex-col gap-6">
      {!billingEnabled && (
        <p
          role="status"
          data-testid="billing-off"
          className="rounded-lg border border-stone-300 bg-stone-100 p-4 text-sm text-stone-700"
        >
          {/* How an operator turns billing on is in docs/operations.md, not on a page every user sees. */}
          {allowances.free === null
            ? "Billing is off on this server: there are no plans to buy here."
            : `Billing is off on this server: no plan can be bought here, and everyone is on the Free plan (${formatAllowance(allowances.free)} a month, set by this server’s operator).`}
        </p>
      )}
      {checkout && <CheckoutBanner result={checkout} sub={sub} waiting={waitingForActivation} />}
      {warning && (
        <div
          role="alert"
          data-testid="payment-warning"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900"
        >
          <span>{warning}</span>
          <button
            type="button"
            disabled={busy}
            onClick={() => perform({ kind: "portal" })}
            className="rounded-md bg-red-700 px-3 py-1.5 text-white hover:bg-red-800 disabled:opacity-50"
          >
            Update payment method
          </button>
        </div>
      )}

      <CurrentPlan sub={sub} billingEnabled={billingEnabled} busy={busy} perform={perform} />

      {operation.isError && (
        <p role="alert" data-testid="billing-error" className="text-sm text-red-700">
          {operation.error.message}
        </p>
      )}

      {confirming && (
        <Confirmation
          action={confirming}
          sub={sub}
          allowances={allowances}
          busy={busy}
          onConfirm={() => perform(confirming.kind === "cancel" ? { kind: "cancel" } : confirming)}
          onDismiss={() => setConfirming(null)}
        />
      )}

      {/* With billing off no plan can be bought here: the plans and their prices would only mislead. */}
      {billingEnabled && (
        <PlanCards
          sub={sub}
          plans={plans.data}
          plansError={plans.isError}
          allowances={allowances}
          busy={busy}
          onAction={(action) => {
            if (action.kind === "checkout") perform(action);
            else setConfirming(action);
          }}
        />
      )}
    </div>
  );
}

function CheckoutBanner({
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

function CurrentPlan({
  sub,
  billingEnabled,
  busy,
  perform,
}: {
  sub: Subscription;
  billingEnabled: boolean;
  busy: boolean;
  perform: (operation: Operation) => void;
}) {
  const percent = sub.unlimited ? 0 : sub.limit_seconds > 0 ? (sub.used_seconds / sub.limit_seconds) * 100 : 100;
  const exhausted = !sub.unlimited && sub.used_seconds >= sub.limit_seconds;
  const paid = sub.tier !== "free";
  const periodEnd = sub.current_period_end ? formatDate(sub.current_period_end) : null;
  return (
    <section
      aria-labelledby="current-plan"
      className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-5"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="current-plan" className="text-lg font-semibold">
          {/* No limit: no plan applies, and the usage line below says there is no limit. */}
          {sub.unlimited ? (
            "Usage"
          ) : (
            <>
              Current plan: <span data-testid="current-tier">{planLabel(sub)}</span>
            </>
          )}
        </h2>
        {billingEnabled && (
          <div className="flex flex-wrap gap-2 text-sm">
            {paid && (
              <button
                type="button"
                disabled={busy}
                onClick={() => perform({ kind: "portal" })}
                className={buttonClass()}
              >
                Manage billing
              </button>
            )}
            <button
              type="button"
              disabled={busy}
              onClick={() => perform({ kind: "reconcile" })}
              title="Ask the payment provider for your plan’s current state"
              className={buttonClass()}
            >
              Check payment status
            </button>
          </div>
        )}
      </div>

      <div className="flex flex-col gap-2">
        {!sub.unlimited && (
          <ProgressBar
            value={percent}
            label="Allowance used"
            tone={exhausted ? "bg-red-600" : percent >= 80 ? "bg-amber-500" : "bg-stone-900"}
            testId="usage-meter"
          />
        )}
        <p className="flex flex-wrap justify-between gap-2 text-sm text-stone-600">
          <span data-testid="usage-text">{usageSummary(sub)}</span>
          {periodEnd && (
            <span data-testid="period-end">
              {paid && !sub.cancel_at_period_end ? "Renews" : "Resets"} on {periodEnd}
            </span>
          )}
        </p>
        {exhausted && (
          <p className="text-sm text-red-700">
            This period’s allowance is used up. New transcripts need a bigger plan or the next period.
          </p>
        )}
      </div>

      {sub.cancel_at_period_end && (
        <div
          data-testid="cancel-notice"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <span>
            Your {TIER_LABELS[sub.tier]} plan is canceled and ends{" "}
            {periodEnd ? `on ${periodEnd}` : "at the end of the period"}. You keep it until then, then move to Free.
          </span>
          <button
            type="button"
            disabled={busy}
            onClick={() => perform({ kind: "resume" })}
            className={buttonClass("primary")}
          >
            Resume {TIER_LABELS[sub.tier]}
          </button>
        </div>
      )}
      {sub.pending_tier && (
        <div
          data-testid="pending-notice"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900"
        >
          <span>
            Switches to {TIER_LABELS[sub.pending_tier]} on{" "}
            {sub.pending_change_at ? formatDate(sub.pending_change_at) : "the period end"}. You keep{" "}
            {TIER_LABELS[sub.tier]} until then.
          </span>
          <button
            type="button"
            disabled={busy}
            onClick={() => perform({ kind: "undo-change" })}
            className={buttonClass("primary")}
          >
            Keep {TIER_LABELS[sub.tier]}
          </button>
        </div>
      )}
    </section>
  );
}

function PlanCards({
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

function Confirmation({
  action,
  sub,
  allowances,
  busy,
  onConfirm,
  onDismiss,
}: {
  action: Confirmable;
  sub: Subscription;
  allowances: Record<Tier, number | null>;
  busy: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
}) {
  const periodEnd = sub.current_period_end ? formatDate(sub.current_period_end) : "the end of the period";
  const text =
    action.kind === "upgrade"
      ? `Upgrade to ${TIER_LABELS[action.tier]} now? Your allowance becomes ${formatAllowance(allowances[action.tier])} at once, and the prorated difference for the rest of this period is charged today.`
      : action.kind === "downgrade"
        ? `Switch to ${TIER_LABELS[action.tier]} on ${periodEnd}? You keep ${TIER_LABELS[sub.tier]} until then; from then on the allowance is ${formatAllowance(allowances[action.tier])}.`
        : `Cancel ${TIER_LABELS[sub.tier]}? You keep it until ${periodEnd}, then move to Free (${formatAllowance(allowances.free)} a month). You can resume until then.`;
  const confirmLabel =
    action.kind === "upgrade" ? "Upgrade now" : action.kind === "downgrade" ? "Schedule the switch" : "Cancel plan";
  return (
    <ConfirmBox
      label="Confirm plan change"
      confirmText={confirmLabel}
      cancelText="Keep my plan"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onDismiss}
      className="max-w-2xl"
    >
      {text}
    </ConfirmBox>
  );
}
