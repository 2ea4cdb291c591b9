"use client";

// The billing page's interactive part: the current plan, the plan cards and the confirmation dialog
// (components/dashboard/billing/), with the wait for Stripe's webhook after Checkout. The panel holds the state
// its pieces share: the pending operation and the activation wait.

import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchPlans, formatAllowance, paymentWarning, PLANS_KEY, type Tier } from "@/lib/browser/billing";
import { fetchSubscription, SUBSCRIPTION_KEY } from "@/lib/browser/transcripts";
import { CheckoutBanner } from "@/components/dashboard/billing/checkout-banner";
import { CurrentPlan } from "@/components/dashboard/billing/current-plan";
import { runOperation, type Confirmable, type Operation } from "@/components/dashboard/billing/operations";
import { PlanCards } from "@/components/dashboard/billing/plan-cards";
import { PlanConfirmation } from "@/components/dashboard/billing/plan-confirmation";

/** How long the page waits for Stripe's webhook after Checkout before asking Stripe itself. */
const ACTIVATION_WAIT_MS = 10_000;
const ACTIVATION_POLL_MS = 1_000;

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
    mutationFn: runOperation,
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
        <PlanConfirmation
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
