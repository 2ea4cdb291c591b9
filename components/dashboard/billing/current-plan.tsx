"use client";

import { buttonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import { formatDate, planLabel, TIER_LABELS, usageSummary } from "@/lib/browser/billing";
import type { Subscription } from "@/lib/browser/transcripts";

import type { Operation } from "./operations";

/** The plan the user is on, its allowance used, and what is scheduled (a cancellation, a switch). */
export function CurrentPlan({
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
