// Browser side of follows: list (GET /v1/follows), one with its items (GET /v1/follows/{id}), follow (POST), pause
// and resume (PATCH), stop (DELETE), check now (POST …/check), and what the last check found.

import type { FollowDetailOut, FollowItemOut, FollowOut, FollowState } from "@/lib/follows/schemas";
import { apiFetch } from "@/lib/browser/api";

export type { FollowDetailOut, FollowOut };

export const FOLLOWS_KEY = ["follows"] as const;

export const FOLLOW_STATE_LABELS: Record<FollowState, string> = {
  active: "Following",
  paused: "Paused",
  allowance: "Waiting for the next period",
  failing: "Checks failing",
};

export function fetchFollows(): Promise<FollowOut[]> {
  return apiFetch<FollowOut[]>("/v1/follows");
}

/** Follows a show; `backfill`: also transcribes its newest N existing items (0: from now on). */
export function startFollow({ url, backfill = 0 }: { url: string; backfill?: number }): Promise<FollowOut> {
  return apiFetch<FollowOut>("/v1/follows", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(backfill > 0 ? { url, backfill } : { url }),
  });
}

export function setFollowState(id: string, state: "active" | "paused"): Promise<FollowOut> {
  return apiFetch<FollowOut>(`/v1/follows/${encodeURIComponent(id)}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ state }),
  });
}

export function stopFollow(id: string): Promise<void> {
  return apiFetch<void>(`/v1/follows/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export const followKey = (id: string) => ["follows", id] as const;

export function fetchFollow(id: string): Promise<FollowDetailOut> {
  return apiFetch<FollowDetailOut>(`/v1/follows/${encodeURIComponent(id)}`);
}

/** Asks for a check now (202: it runs as soon as a runner is free); answers the follow. */
export function checkFollowNow(id: string): Promise<FollowOut> {
  return apiFetch<FollowOut>(`/v1/follows/${encodeURIComponent(id)}/check`, { method: "POST" });
}

/**
 * How long a check may take from its first new item to its end (it lists the source, records what is new, then
 * notes the time): the items found by the last check are those found this long before it ended, or less.
 */
const CHECK_SPAN_MS = 5 * 60_000;

/**
 * What the last check found, in a sentence: "no new episodes" too (a follow that says nothing looks stuck). The
 * items found by it are those to transcribe (not merely remembered, `seen`) found within the check's span before
 * `last_checked_at`. A failed check is told by the follow's note.
 */
export function lastCheckText(
  follow: Pick<FollowOut, "kind" | "last_checked_at" | "state">,
  items: readonly Pick<FollowItemOut, "status" | "found_at" | "title">[] | undefined,
  now: Date = new Date(),
): string {
  if (!follow.last_checked_at) return "Not checked yet.";
  const ended = Date.parse(follow.last_checked_at);
  const when = agoText(now.getTime() - ended);
  if (follow.state === "failing") return `Last checked ${when}: the check failed.`;
  if (!items) return `Last checked ${when}.`;
  const found = items.filter((item) => {
    const at = Date.parse(item.found_at);
    return item.status !== "seen" && at <= ended + 1000 && at >= ended - CHECK_SPAN_MS;
  });
  const noun = follow.kind === "youtube" ? "video" : "episode";
  if (found.length === 0) return `Last checked ${when}: no new ${noun}s.`;
  if (found.length === 1) return `Last checked ${when}: 1 new ${noun}, “${found[0].title}”.`;
  return `Last checked ${when}: ${found.length} new ${noun}s.`;
}

function agoText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

export interface FollowButton {
  /** The button's visible text. */
  text: string;
  /** Its accessible name: the visible text first, then which follow (label in name, WCAG 2.5.3). */
  label: string;
}

/** A follow's buttons, by what it is and what it is doing: each accessible name holds its visible text. */
export function followButtons(
  follow: Pick<FollowOut, "kind" | "state">,
  name: string,
  checking: boolean,
): { check: FollowButton; toggle: FollowButton; stop: FollowButton } {
  const noun = follow.kind === "youtube" ? "videos" : "episodes";
  const toggle = follow.state === "paused" ? "Resume" : "Pause";
  return {
    check: checking
      ? { text: "Checking…", label: `Checking for new ${noun} of ${name}` }
      : { text: "Check now", label: `Check now for new ${noun} of ${name}` },
    toggle: { text: toggle, label: `${toggle} ${name}` },
    stop: { text: "Stop following", label: `Stop following ${name}` },
  };
}
