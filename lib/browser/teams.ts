// Browser side of teams (the dashboard's Team page and the invitation page): the person's teams, members and
// roles, invitations, the audit trail and per-member usage (/v1/teams…, /v1/invitations/accept).

import { apiFetch } from "@/lib/browser/api";
import type { TeamRoleName } from "@/lib/roles/ladder";
import type { KeyScope } from "@/lib/http/permissions";

export type TeamRole = TeamRoleName;

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
};

/** What each role may do, said where a role is chosen (the permission table, lib/http/permissions.ts, in words). */
export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  viewer: "reads, searches and downloads the team's transcripts; changes nothing",
  member: "what a viewer does, and transcribes, imports, corrects, publishes and deletes",
  admin: "what a member does, and manages the API key, webhooks, follows, members and invitations",
  owner: "what an admin does, and the plan, billing and deleting the team",
};

export interface TeamView {
  id: string;
  name: string;
  slug: string;
  role: TeamRole;
  created_at: string;
  members_count?: number;
}

export interface MemberView {
  user_id: string;
  email: string | null;
  name: string | null;
  role: TeamRole;
  joined_at: string;
  managed_by_identity_provider: boolean;
}

export interface InvitationView {
  id: string;
  email: string;
  role: TeamRole;
  expires_at: string;
  created_at: string;
}

export interface AuditEventView {
  id: string;
  at: string;
  actor: { id: string | null; label: string };
  action: string;
  target: string | null;
  data: unknown;
}

export interface TeamUsageView {
  period_start: string;
  period_end: string;
  used_seconds: number;
  members: { user_id: string; email: string | null; used_seconds: number; requests: number }[];
  keys?: {
    key_id: string | null;
    name: string | null;
    prefix: string | null;
    used_seconds: number;
    requests: number;
  }[];
  former_members?: { used_seconds: number; requests: number };
  other_seconds?: number;
}

export interface UsageRow {
  id: string;
  label: string;
  detail: string | null;
  seconds: number;
  requests: number | null;
}

/**
 * The usage panel's rows: each member, each key, former members and what no row holds, which add up to the team's
 * charge. Members are always listed; the others only when they hold something.
 */
export function usageRows(usage: TeamUsageView): UsageRow[] {
  const rows: UsageRow[] = usage.members.map((member) => ({
    id: `member:${member.user_id}`,
    label: member.email ?? member.user_id,
    detail: null,
    seconds: member.used_seconds,
    requests: member.requests,
  }));
  for (const key of usage.keys ?? []) {
    if (key.key_id === null || key.requests > 0)
      rows.push({
        id: `key:${key.key_id ?? "revoked"}`,
        label: key.name === null ? "Revoked keys" : `Key “${key.name}”`,
        detail: key.prefix,
        seconds: key.used_seconds,
        requests: key.requests,
      });
  }
  const former = usage.former_members;
  if (former && former.requests > 0)
    rows.push({
      id: "former",
      label: "Former members",
      detail: null,
      seconds: former.used_seconds,
      requests: former.requests,
    });
  if (usage.other_seconds)
    rows.push({
      id: "other",
      label: "Not attributed",
      detail: "jobs, schedules, deleted entries",
      seconds: usage.other_seconds,
      requests: null,
    });
  return rows;
}

export interface TeamKeyView {
  id: string;
  name: string;
  key_prefix: string;
  scopes: KeyScope[];
  created_at: string;
  created_by: { id: string; label: string };
  expires_at: string | null;
  expired: boolean;
  last_used_at: string | null;
}

export const SCOPE_LABELS: Record<KeyScope, string> = {
  read: "Read: the library, search, usage",
  transcribe: "Transcribe: transcribe, correct, import, upload, alerts",
  publish: "Publish and unpublish",
  manage: "Manage: webhooks and follows",
};

export const TEAMS_KEY = ["teams"] as const;
export const teamKey = (id: string) => [...TEAMS_KEY, id] as const;

const enc = encodeURIComponent;
const send = (method: string, body?: unknown): RequestInit => ({
  method,
  ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
});
const team = (id: string) => `/v1/teams/${enc(id)}`;

export const fetchTeams = () => apiFetch<{ teams: TeamView[] }>("/v1/teams").then((r) => r.teams);
export const createTeam = (input: { name: string; slug?: string }) =>
  apiFetch<TeamView>("/v1/teams", send("POST", input));
export const fetchTeam = (id: string) => apiFetch<TeamView>(team(id));
export const updateTeam = (id: string, input: { name?: string; slug?: string }) =>
  apiFetch<TeamView>(team(id), send("PATCH", input));
export const deleteTeam = (id: string) => apiFetch<null>(team(id), send("DELETE"));
export const transferTeam = (id: string, userId: string) =>
  apiFetch<{ members: MemberView[] }>(`${team(id)}/transfer`, send("POST", { user_id: userId }));
export const fetchMembers = (id: string) =>
  apiFetch<{ members: MemberView[] }>(`${team(id)}/members`).then((r) => r.members);
export const changeRole = (id: string, userId: string, role: TeamRole) =>
  apiFetch<MemberView>(`${team(id)}/members/${enc(userId)}`, send("PATCH", { role }));
export const removeMember = (id: string, userId: string) =>
  apiFetch<null>(`${team(id)}/members/${enc(userId)}`, send("DELETE"));
export const fetchInvitations = (id: string) =>
  apiFetch<{ invitations: InvitationView[] }>(`${team(id)}/invitations`).then((r) => r.invitations);
export const invite = (id: string, input: { email: string; role: TeamRole }) =>
  apiFetch<InvitationView>(`${team(id)}/invitations`, send("POST", input));
export const revokeInvitation = (id: string, invitationId: string) =>
  apiFetch<null>(`${team(id)}/invitations/${enc(invitationId)}`, send("DELETE"));
export const fetchAudit = (id: string, cursor?: string | null) =>
  apiFetch<{ events: AuditEventView[]; next_cursor: string | null }>(
    `${team(id)}/audit?limit=50${cursor ? `&cursor=${enc(cursor)}` : ""}`,
  );
export const fetchUsage = (id: string) => apiFetch<TeamUsageView>(`${team(id)}/usage`);
export const fetchTeamKeys = (id: string) => apiFetch<{ keys: TeamKeyView[] }>(`${team(id)}/keys`).then((r) => r.keys);
export const createTeamKey = (id: string, input: { name: string; scopes: KeyScope[]; expires_at: string | null }) =>
  apiFetch<TeamKeyView & { key: string }>(`${team(id)}/keys`, send("POST", input));
export const revokeTeamKey = (id: string, keyId: string) =>
  apiFetch<null>(`${team(id)}/keys/${enc(keyId)}`, send("DELETE"));
/** The trail as a file: a plain link, so the browser downloads the stream as it comes. */
export const auditExportUrl = (id: string, format: "csv" | "jsonl") => `${team(id)}/audit/export?format=${format}`;
export const acceptInvitation = (token: string) =>
  apiFetch<{ team: TeamView }>("/v1/invitations/accept", send("POST", { token }));

const ACTION_SENTENCES: Record<string, string> = {
  "team.created": "created the team",
  "team.renamed": "renamed the team",
  "team.deleted": "deleted the team",
  "member.invited": "invited",
  "member.joined": "added",
  "member.role_changed": "changed the role of",
  "member.removed": "removed",
  "member.left": "left the team",
  "invitation.revoked": "revoked the invitation of",
  "ownership.transferred": "handed ownership to",
  "key.revoked": "revoked the team's API key",
  "webhook.disabled": "disabled the webhook endpoint",
  "alert.handed_over": "handed to the team the alert",
  "alert.feed_rotated": "gave a new feed URL to the alert",
};

/** Why a key or an invitation went with a member's role (role-loss.ts's `reason`), after who it was. */
const LOSS_REASONS: Record<string, string> = {
  "member.removed": "was removed",
  "member.left": "left",
  "member.role_changed": "was lowered",
};

/** An audit event in words: "ana@example.com changed the role of bo@example.com (member → admin)". */
export function auditSentence(event: Pick<AuditEventView, "actor" | "action" | "target" | "data">): string {
  const verb = ACTION_SENTENCES[event.action] ?? event.action.replace(/[._]/g, " ");
  const data = (event.data && typeof event.data === "object" ? event.data : {}) as Record<string, unknown>;
  const target = event.action === "member.left" || event.action.startsWith("team.") ? null : event.target;
  const joined = event.action === "member.joined" && event.actor.label === event.target;
  const change =
    typeof data.from === "string" && typeof data.to === "string" && event.action === "member.role_changed"
      ? ` (${data.from} → ${data.to})`
      : typeof data.role === "string" && (event.action === "member.invited" || event.action === "member.joined")
        ? ` as ${data.role}`
        : "";
  if (joined) return `${event.actor.label} joined${change}`;
  const lost = typeof data.reason === "string" ? LOSS_REASONS[data.reason] : undefined;
  const who = typeof data.member === "string" ? data.member : typeof data.sender === "string" ? data.sender : null;
  const because =
    lost && who ? (event.action === "invitation.revoked" ? ` (sent by ${who}, who ${lost})` : ` (${who} ${lost})`) : "";
  return [event.actor.label, verb, target].filter(Boolean).join(" ") + change + because;
}

/** "1 h 2 min", "45 s": a member's seconds, short. */
export function shortDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}
