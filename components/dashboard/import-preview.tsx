"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { importCostText } from "@/lib/browser/imports";
import { fetchSubscription, formatMinutes, SUBSCRIPTION_KEY } from "@/lib/browser/transcripts";
import { allowanceLeft } from "@/lib/browser/billing";
import type { ResolveResponse } from "@/lib/podcasts/schemas";
import { buttonClass } from "@/components/ui/button";

/**
 * What an import will cost against the allowance, said before it starts: a feed's episodes and their
 * length in all (what is already in the history is free); a playlist or channel, whose length is known
 * only once listed, by the rule. `feed` is null when the address is not a feed. Episodes that publish their own
 * transcript cost nothing, and a server that cannot recognise speech takes nothing from the allowance.
 */
export function ImportPreview({
  feed,
  onStart,
  onCancel,
  starting,
  speechRecognition,
}: {
  feed: ResolveResponse | null;
  speechRecognition: boolean;
  onStart: () => void;
  onCancel: () => void;
  starting: boolean;
}) {
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  const left = subscription.data ? allowanceLeft(subscription.data) : null;
  const episodes = feed?.episodes ?? [];
  const total = feed?.total_episodes ?? episodes.length;
  const said = importCostText(episodes, total, speechRecognition);
  // The allowance is worth a word only where the import takes from it.
  const costs = feed ? said.cost : speechRecognition;
  const fits = !costs || left === null || said.seconds <= left;
  return (
    <section
      aria-labelledby="import-preview-title"
      className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      data-testid="import-preview"
    >
      <h2 id="import-preview-title" className="font-semibold">
        {feed
          ? `${feed.show?.title ?? "This feed"}: ${total.toLocaleString("en-US")} episode${total === 1 ? "" : "s"}`
          : "A playlist or channel"}
      </h2>
      <p data-testid="import-cost">
        {feed
          ? said.text
          : speechRecognition
            ? "Its length is known only once it is listed. Every new video's length counts toward your allowance: those with captions are taken as they are, those without are transcribed by speech recognition."
            : "Its length is known only once it is listed. Videos with captions are taken as they are; those without cannot be transcribed on this server."}{" "}
        {!costs
          ? null
          : subscription.data?.unlimited
            ? "There is no limit on this server."
            : left !== null && `You have ${formatMinutes(left)} left this period.`}
      </p>
      {!fits && (
        <p data-testid="import-over">
          That is more than is left: the episodes that do not fit will fail.{" "}
          <Link href="/dashboard/billing" className="font-medium underline">
            See plans
          </Link>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onStart}
          disabled={starting}
          className={buttonClass("primary")}
          data-testid="import-start"
        >
          {starting ? "Starting…" : "Start the import"}
        </button>
        <button type="button" onClick={onCancel} className={buttonClass("ghost")}>
          Cancel
        </button>
      </div>
    </section>
  );
}
