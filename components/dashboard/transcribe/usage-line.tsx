"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { fetchSubscription, formatMinutes, SUBSCRIPTION_KEY } from "@/lib/browser/transcripts";
import { spokenDuration } from "@/lib/formats/spoken-duration";
import { focusRing } from "@/components/ui/focus";

/** The plan and what is left of this period's allowance, under the form. */
export function UsageLine() {
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  if (!subscription.data) return null;
  const { tier, used_seconds, limit_seconds, unlimited } = subscription.data;
  if (unlimited)
    return (
      <p className="text-xs text-stone-600" data-testid="usage-line">
        No limit on this server: {spokenDuration(used_seconds)} transcribed this period.
      </p>
    );
  const left = Math.max(0, limit_seconds - used_seconds);
  return (
    <p className="text-xs text-stone-600" data-testid="usage-line">
      {tier.charAt(0).toUpperCase() + tier.slice(1)} plan: {formatMinutes(used_seconds)} of{" "}
      {formatMinutes(limit_seconds)} used this period
      {left === 0 ? " (allowance used up)" : ""}.{" "}
      <Link className={`rounded underline ${focusRing}`} href="/dashboard/billing">
        {left === 0 ? "Get more" : "Plans and usage"}
      </Link>
    </p>
  );
}
