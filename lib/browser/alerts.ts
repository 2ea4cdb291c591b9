// Browser side of alerts (the dashboard's Alerts page): saved searches, their inbox and unread counts
// (/v1/alerts…).

import { apiFetch } from "@/lib/browser/api";

export interface AlertView {
  id: string;
  name: string;
  query: string;
  mode: "words" | "meaning";
  scope: { kind: "library" | "team" | "follows" | "public"; team_id: string | null; follow_ids: string[] };
  email: boolean;
  paused: boolean;
  feed_url: string;
  unread: number;
  created_at: string;
}

export interface AlertMomentView {
  start: number;
  segment_index: number;
  text: string;
  links: { source: string | null; viewer: string | null; page: string | null };
}

export interface AlertMatchView {
  id: string;
  transcript_id: string;
  title: string | null;
  moments: AlertMomentView[];
  matched_at: string;
  read: boolean;
}

export const ALERTS_KEY = ["alerts"] as const;
export const matchesKey = (id: string) => [...ALERTS_KEY, id, "matches"] as const;

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const enc = encodeURIComponent;

export const fetchAlerts = () => apiFetch<{ alerts: AlertView[]; unread: number }>("/v1/alerts");
export const createAlert = (input: { query: string; scope: { kind: "library" | "public" }; email: boolean }) =>
  apiFetch<AlertView>("/v1/alerts", json("POST", input));
export const setPaused = (id: string, paused: boolean) =>
  apiFetch<AlertView>(`/v1/alerts/${enc(id)}`, json("PATCH", { paused }));
export const deleteAlert = (id: string) => apiFetch<null>(`/v1/alerts/${enc(id)}`, { method: "DELETE" });
export const fetchMatches = (id: string) =>
  apiFetch<{ matches: AlertMatchView[]; unread: number }>(`/v1/alerts/${enc(id)}/matches`);
export const markAllRead = (id: string) =>
  apiFetch<{ matches: AlertMatchView[]; unread: number }>(`/v1/alerts/${enc(id)}/read`, json("POST", {}));

/** A moment's time as m:ss or h:mm:ss. */
export function momentClock(seconds: number): string {
  const s = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
}
