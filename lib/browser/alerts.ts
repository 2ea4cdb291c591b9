// Browser side of alerts (the dashboard's Alerts page): saved searches, their inbox and unread counts
// (/v1/alerts…).

import type { AlertScopeChoices } from "@/lib/alerts/scope-choices";
import { apiFetch } from "@/lib/browser/api";

export type { AlertScopeChoices };

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
/** How often an open dashboard page asks for the alerts again, so a new match shows without a reload. */
export const ALERTS_POLL_MS = 10_000;
export type AlertScopeRequest =
  | { kind: "library" | "public" }
  | { kind: "team"; team_id: string }
  | { kind: "follows"; follow_ids: string[] };

/** The form's scope choices: `library`, `public`, `follows`, or `team:<id>`. */
export interface ScopeOption {
  value: string;
  label: string;
}

const TEAM_PREFIX = "team:";

/** What the alert form's "In" offers, from what the account may watch (lib/alerts/scope-choices.ts). */
export function scopeOptions(choices: AlertScopeChoices): ScopeOption[] {
  const { library } = choices;
  return [
    {
      value: "library",
      label: library.kind === "team" ? `the ${library.name ?? "team"} team's library` : "my library",
    },
    ...choices.teams.map((team) => ({
      value: `${TEAM_PREFIX}${team.id}`,
      label: `the ${team.name ?? "team"} team's library`,
    })),
    ...(choices.follows.length > 0 ? [{ value: "follows", label: "episodes of chosen follows" }] : []),
    { value: "public", label: "every published transcript" },
  ];
}

/** The request's scope for the form's choice (`follows`: the follows ticked). */
export function scopeRequest(value: string, followIds: string[]): AlertScopeRequest {
  if (value.startsWith(TEAM_PREFIX)) return { kind: "team", team_id: value.slice(TEAM_PREFIX.length) };
  if (value === "follows") return { kind: "follows", follow_ids: followIds };
  return { kind: value === "public" ? "public" : "library" };
}

/** How the list names an alert's scope. */
export function scopeLabel(scope: AlertView["scope"], choices: AlertScopeChoices): string {
  if (scope.kind === "public") return "Published transcripts";
  if (scope.kind === "library") return choices.library.kind === "team" ? "Team library" : "Library";
  if (scope.kind === "team") {
    const team = choices.teams.find((t) => t.id === scope.team_id);
    return team?.name ? `${team.name}'s library` : "A team's library";
  }
  const shows = scope.follow_ids.length;
  return `Episodes of ${shows} show${shows === 1 ? "" : "s"}`;
}

/** How an alert matches: by the search's words, or by meaning at least this close (the embedder's own scale). */
export type AlertMatching = { mode: "words" } | { mode: "meaning"; closeness: "related" | "close" | "very_close" };

/** The form's closeness choices, in words. */
export const CLOSENESS_CHOICES: { value: "related" | "close" | "very_close"; label: string }[] = [
  { value: "related", label: "related" },
  { value: "close", label: "close" },
  { value: "very_close", label: "very close" },
];

export type AlertRequest = { query: string; scope: AlertScopeRequest; email: boolean } & AlertMatching;

export interface AlertPreviewView {
  matches: { transcript_id: string; title: string | null }[];
  matched: number;
  transcripts: number;
}

export const createAlert = (input: AlertRequest) => apiFetch<AlertView>("/v1/alerts", json("POST", input));
/** What the alert the form describes would have matched in the last 30 days, before it is saved. */
export const previewNewAlert = (input: AlertRequest) =>
  apiFetch<AlertPreviewView>("/v1/alerts/preview", json("POST", input));

/** The preview's sentence: how many of the last 30 days' transcripts it would have matched. */
export function previewSentence({ matched, transcripts }: Pick<AlertPreviewView, "matched" | "transcripts">): string {
  if (transcripts === 0)
    return "No transcript came into this scope in the last 30 days, so there is nothing to try it on.";
  const of = `${transcripts} transcript${transcripts === 1 ? "" : "s"}`;
  return `It would have matched ${matched} of the ${of} that came in over the last 30 days.`;
}
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
