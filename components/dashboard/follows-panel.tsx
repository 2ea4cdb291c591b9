"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  fetchFollows,
  FOLLOW_STATE_LABELS,
  FOLLOWS_KEY,
  setFollowState,
  startFollow,
  stopFollow,
  type FollowOut,
} from "@/lib/browser/follows";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import { PanelItem, PanelList, UrlField } from "@/components/dashboard/panel-list";

/** Follow a show (feed, Apple Podcasts show, YouTube channel or playlist); pause, resume or stop the caller's follows. */
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

function Follow({ follow, onChange }: { follow: FollowOut; onChange: () => void }) {
  const toggle = useMutation({
    mutationFn: () => setFollowState(follow.id, follow.state === "paused" ? "active" : "paused"),
    onSuccess: onChange,
  });
  const stop = useMutation({ mutationFn: () => stopFollow(follow.id), onSuccess: onChange });
  const name = follow.title ?? follow.url;
  const error = toggle.error ?? stop.error;
  return (
    <PanelItem
      testId="follow"
      head={
        <>
          <span className="font-medium">{name}</span>
          <span className="text-sm text-stone-500">{FOLLOW_STATE_LABELS[follow.state]}</span>
        </>
      }
    >
      <p className="text-sm text-stone-600">
        {follow.items_seen} items seen
        {follow.next_check_at ? ` · next check ${new Date(follow.next_check_at).toLocaleString()}` : ""}
        {follow.push?.state === "active" ? " · new items are pushed by its hub" : ""}
      </p>
      {follow.note ? <p className="text-sm text-stone-500">{follow.note}</p> : null}
      <div className="flex gap-2">
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
