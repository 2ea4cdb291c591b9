"use client";

import { useEffect, useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  checkFollowNow,
  fetchFollow,
  fetchFollows,
  FOLLOW_STATE_LABELS,
  followKey,
  FOLLOWS_KEY,
  lastCheckText,
  setFollowState,
  startFollow,
  stopFollow,
  type FollowOut,
} from "@/lib/browser/follows";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import { PanelItem, PanelList, UrlField } from "@/components/dashboard/panel-list";

/**
 * Follow a show (feed, Apple Podcasts show, YouTube channel or playlist); pause, resume, check now or stop the
 * caller's follows. Each says what its last check found, "no new episodes" too.
 */
export function FollowsPanel() {
  const inputId = useId();
  const [url, setUrl] = useState("");
  const queryClient = useQueryClient();
  const follows = useQuery({ queryKey: FOLLOWS_KEY, queryFn: fetchFollows });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: FOLLOWS_KEY });
  const start = useMutation({
    mutationFn: startFollow,
    onSuccess: () => {
      setUrl("");
      refresh();
    },
  });

  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim()) start.mutate(url.trim());
        }}
      >
        <UrlField id={inputId} value={url} onChange={setUrl} placeholder="https://feeds.example.com/show.xml" grow>
          Follow a show: new episodes or videos are transcribed as they appear
        </UrlField>
        <button type="submit" disabled={start.isPending} className={buttonClass("primary", "lg")}>
          {start.isPending ? "Following…" : "Follow"}
        </button>
      </form>
      <ErrorText error={start.error} />
      <PanelList query={follows} label="Follows" empty="No follows yet.">
        {(follow) => <Follow key={follow.id} follow={follow} onChange={refresh} />}
      </PanelList>
    </div>
  );
}

/** While a check asked for here has not ended, the follow is asked for again this often (and at most this long). */
const CHECK_POLL_MS = 2000;
const CHECK_WAIT_MS = 60_000;

function Follow({ follow, onChange }: { follow: FollowOut; onChange: () => void }) {
  // The check asked for here: the last check's time when it was asked (its end is a newer one); given up after a while.
  const [asked, setAsked] = useState<{ before: string | null } | null>(null);
  useEffect(() => {
    if (!asked) return;
    const timer = setTimeout(() => setAsked(null), CHECK_WAIT_MS);
    return () => clearTimeout(timer);
  }, [asked]);
  const detail = useQuery({
    queryKey: followKey(follow.id),
    queryFn: () => fetchFollow(follow.id),
    refetchInterval: (query) => (asked && query.state.data?.last_checked_at === asked.before ? CHECK_POLL_MS : false),
  });
  const shown = detail.data ?? follow;
  const checking = asked !== null && shown.last_checked_at === asked.before;
  const toggle = useMutation({
    mutationFn: () => setFollowState(follow.id, follow.state === "paused" ? "active" : "paused"),
    onSuccess: onChange,
  });
  const check = useMutation({
    mutationFn: () => checkFollowNow(follow.id),
    onMutate: () => setAsked({ before: shown.last_checked_at }),
    onSuccess: () => void detail.refetch(),
    onError: () => setAsked(null),
  });
  const stop = useMutation({ mutationFn: () => stopFollow(follow.id), onSuccess: onChange });
  const name = shown.title ?? shown.url;
  const error = toggle.error ?? check.error ?? stop.error;
  return (
    <PanelItem
      testId="follow"
      head={
        <>
          <span className="font-medium">{name}</span>
          <span className="text-sm text-stone-500">{FOLLOW_STATE_LABELS[shown.state]}</span>
        </>
      }
    >
      <p className="text-sm text-stone-700" role="status" data-testid="follow-last-check">
        {checking ? "Checking now…" : lastCheckText(shown, detail.data?.items)}
      </p>
      <p className="text-sm text-stone-600">
        {shown.items_seen} items seen
        {shown.next_check_at && !checking ? ` · next check ${new Date(shown.next_check_at).toLocaleString()}` : ""}
        {shown.push?.state === "active" ? " · new items are pushed by its hub" : ""}
      </p>
      {shown.note ? <p className="text-sm text-stone-500">{shown.note}</p> : null}
      {shown.show_url ? (
        // The page answers once an episode is published (lib/publishing/show-page.ts): say so rather than link a 404 silently.
        <p className="text-sm text-stone-600" data-testid="follow-show-links">
          The episodes you publish are listed on the show&apos;s{" "}
          <a href={shown.show_url} className="text-sky-700 underline hover:decoration-2">
            public page
          </a>{" "}
          and in its{" "}
          <a href={`${shown.show_url}/feed.xml`} className="text-sky-700 underline hover:decoration-2">
            podcast feed with transcripts
          </a>
          .
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={check.isPending || checking || shown.state === "paused"}
          onClick={() => check.mutate()}
          className={buttonClass("secondary", "sm")}
          aria-label={`Check ${name} now`}
          data-testid="follow-check-now"
        >
          {checking ? "Checking…" : "Check now"}
        </button>
        <button
          type="button"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate()}
          className={buttonClass("secondary", "sm")}
          aria-label={`${follow.state === "paused" ? "Resume" : "Pause"} ${name}`}
        >
          {follow.state === "paused" ? "Resume" : "Pause"}
        </button>
        <button
          type="button"
          disabled={stop.isPending}
          onClick={() => stop.mutate()}
          className={buttonClass("secondary", "sm")}
          aria-label={`Stop following ${name}`}
        >
          Stop following
        </button>
      </div>
      <ErrorText error={error} />
    </PanelItem>
  );
}
