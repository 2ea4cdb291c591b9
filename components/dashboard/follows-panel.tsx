"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  checkFollowNow,
  fetchFollow,
  fetchFollows,
  FOLLOW_STATE_LABELS,
  followKey,
  FOLLOWS_KEY,
  followButtons,
  lastCheckText,
  setFollowState,
  startFollow,
  stopFollow,
  type FollowOut,
} from "@/lib/browser/follows";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { ErrorText } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ExportNotesButton } from "@/components/dashboard/history/export-notes-button";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { PanelItem, PanelList, UrlField } from "@/components/dashboard/panel-list";
import { formatDateTime } from "@/lib/browser/dates";

/**
 * Follow a show (feed, Apple Podcasts show, YouTube channel or playlist), with its newest existing episodes too
 * where asked (backfill, at most `maxBackfill`); pause, resume, check now or stop the caller's follows (stopping
 * asks first). Each says what its last check found, "no new episodes" too.
 */
export function FollowsPanel({ maxBackfill }: { maxBackfill: number }) {
  const inputId = useId();
  const backfillId = useId();
  const hydrated = useHydrated();
  const [url, setUrl] = useState("");
  const [backfill, setBackfill] = useState(0);
  const queryClient = useQueryClient();
  const follows = useQuery({ queryKey: FOLLOWS_KEY, queryFn: fetchFollows });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: FOLLOWS_KEY });
  const start = useMutation({
    mutationFn: startFollow,
    onSuccess: () => {
      setUrl("");
      setBackfill(0);
      refresh();
    },
  });

  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim()) start.mutate({ url: url.trim(), backfill });
        }}
      >
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <UrlField id={inputId} value={url} onChange={setUrl} placeholder="https://feeds.example.com/show.xml" grow>
            Follow a show: new episodes or videos are transcribed as they appear
          </UrlField>
          <button
            type="submit"
            disabled={!hydrated || start.isPending}
            className={buttonClass("primary", "lg")}
            data-testid="follow-submit"
          >
            {start.isPending ? "Following…" : "Follow"}
          </button>
        </div>
        {maxBackfill > 0 && (
          <label htmlFor={backfillId} className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
            Also transcribe the newest
            <select
              id={backfillId}
              value={backfill}
              disabled={!hydrated}
              onChange={(event) => setBackfill(Number(event.target.value))}
              className={controlClass}
              data-testid="follow-backfill"
            >
              {backfillChoices(maxBackfill).map((n) => (
                <option key={n} value={n}>
                  {n === 0 ? "none" : n}
                </option>
              ))}
            </select>
            of the episodes or videos already there (each counts toward your allowance)
          </label>
        )}
      </form>
      <ErrorText error={start.error} />
      <PanelList query={follows} label="Follows" empty="No follows yet.">
        {(follow) => <Follow key={follow.id} follow={follow} onChange={refresh} />}
      </PanelList>
    </div>
  );
}

/** The backfill sizes offered: none, a few, and up to the server's most. */
function backfillChoices(max: number): number[] {
  return [0, 1, 3, 5, 10, 20, 50, 100, 500].filter((n) => n < max).concat(max);
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
  const [confirmingStop, setConfirmingStop] = useState(false);
  const stopButton = useRef<HTMLButtonElement>(null);
  const name = shown.title ?? shown.url;
  // Pause or Resume by the state the toggle acts on (the list's), as its mutation does.
  const buttons = followButtons({ kind: shown.kind, state: follow.state }, name, checking);
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
        {shown.next_check_at && !checking ? ` · next check ${formatDateTime(shown.next_check_at)}` : ""}
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
          aria-label={buttons.check.label}
          data-testid="follow-check-now"
        >
          {buttons.check.text}
        </button>
        <button
          type="button"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate()}
          className={buttonClass("secondary", "sm")}
          aria-label={buttons.toggle.label}
        >
          {buttons.toggle.text}
        </button>
        {!confirmingStop && (
          <button
            ref={stopButton}
            type="button"
            onClick={() => setConfirmingStop(true)}
            className={buttonClass("secondary", "sm")}
            aria-label={buttons.stop.label}
            data-testid="follow-stop"
          >
            {buttons.stop.text}
          </button>
        )}
      </div>
      <ExportNotesButton
        selection={{ follow_id: follow.id }}
        label="Export its transcripts as notes (.zip)"
        name={`Export its transcripts as notes (.zip): ${name}`}
        testId="follow-export-notes"
      />
      {confirmingStop && (
        <ConfirmBox
          label={`Stop following ${name}?`}
          confirmText="Yes, stop following"
          cancelText="Keep following"
          busy={stop.isPending}
          onConfirm={() => stop.mutate()}
          onCancel={() => {
            setConfirmingStop(false);
            requestAnimationFrame(() => stopButton.current?.focus());
          }}
        >
          Stop following {name}? Its new {shown.kind === "youtube" ? "videos" : "episodes"} are no longer transcribed;
          what was transcribed stays in your history.
        </ConfirmBox>
      )}
      <ErrorText error={error} />
    </PanelItem>
  );
}
