// Browser side of follows: list (GET /v1/follows), follow (POST), pause and resume (PATCH), stop (DELETE).

import type { FollowOut, FollowState } from "@/lib/follows/schemas";
import { apiFetch } from "@/lib/browser/api";

export type { FollowOut };

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

export function startFollow(url: string): Promise<FollowOut> {
  return apiFetch<FollowOut>("/v1/follows", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }),
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
