"use client";

import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { formatAllowance, formatDate, TIER_LABELS, type Tier } from "@/lib/browser/billing";
import type { Subscription } from "@/lib/browser/transcripts";

import type { Confirmable } from "./operations";

/** A change to what the user pays, said in full before it is sent. */
export function PlanConfirmation({
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
