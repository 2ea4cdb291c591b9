import { defineEndpoint } from "@/lib/http/endpoint";
import {
  acceptedSchema,
  acceptInvitationSchema,
  auditListSchema,
  auditExportQuerySchema,
  auditQuerySchema,
  changeRoleSchema,
  createdTeamKeySchema,
  createTeamKeySchema,
  createInvitationSchema,
  createTeamSchema,
  invitationListSchema,
  invitationParamsSchema,
  invitationSchema,
  memberListSchema,
  memberParamsSchema,
  memberSchema,
  teamDetailSchema,
  teamKeyListSchema,
  teamKeyParamsSchema,
  teamListSchema,
  teamParamsSchema,
  teamSchema,
  teamUsageSchema,
  transferSchema,
  updateTeamSchema,
} from "@/lib/teams/schemas";

const tag = "Teams";
const notYours = "No team with this id among yours (another team's id answers the same)";
const roles =
  "Roles: owner (billing, deleting the team, ownership transfer) > admin (members, invitations, keys, webhooks, follows, the audit trail, per-member usage) > member (transcribe, correct, publish) > viewer (read and search). A lower role than an operation needs is a 403 naming the role. Team management needs a person: a session, or a personal account's API key.";

export const createTeamEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams",
  tag,
  summary: "Create a team; the caller becomes its owner",
  description: `A team is a workspace of its own: library, API key, webhooks, follows, plan and allowance. TEAM_MAX_OWNED teams per person. ${roles}`,
  auth: "teams",
  rateLimit: "account",
  body: createTeamSchema,
  status: 201,
  response: teamSchema,
  errors: { 409: "The slug is taken (`slug_taken`), or the caller owns TEAM_MAX_OWNED teams (`too_many_teams`)" },
});

export const listTeamsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams",
  tag,
  summary: "The teams the caller is a member of, with their role",
  auth: "teams",
  rateLimit: "account",
  response: teamListSchema,
});

export const getTeamEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}",
  tag,
  summary: "A team the caller is in (any role)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: teamDetailSchema,
  errors: { 404: notYours },
});

export const updateTeamEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/v1/teams/{team_id}",
  tag,
  summary: "Rename a team or change its slug (admin)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  body: updateTeamSchema,
  response: teamDetailSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours, 409: "The slug is taken (`slug_taken`)" },
});

export const deleteTeamEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}",
  tag,
  summary: "Delete a team and everything it owns (owner)",
  description:
    "History, corrections, publications, the API key, webhooks, follows, imports, memberships, invitations and the audit trail go with it. Refused while a paid subscription is live: cancel it first.",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  status: 204,
  response: null,
  errors: {
    403: "The caller is not the team's owner",
    404: notYours,
    409: "A paid subscription is live (`subscription_active`)",
  },
});

export const transferTeamEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/transfer",
  tag,
  summary: "Hand the team to another member (owner): they become owner, the caller admin",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  body: transferSchema,
  response: memberListSchema,
  errors: {
    403: "The caller is not the team's owner",
    404: "No such team among the caller's, or no such member in it",
    409: "The new owner owns TEAM_MAX_OWNED teams already (`too_many_teams`)",
  },
});

export const listMembersEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/members",
  tag,
  summary: "The team's members and their roles (any member)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: memberListSchema,
  errors: { 404: notYours },
});

export const changeMemberRoleEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/v1/teams/{team_id}/members/{user_id}",
  tag,
  summary: "Change a member's role (admin; only an owner makes or unmakes an owner)",
  description:
    "Takes effect on the member's next request, with every credential they hold. An admin or owner lowered below admin loses what that role reached: the team's API key, which they could read, is revoked (the owners are told), so are the named keys they made, and their pending invitations the new role may not give stop working.",
  auth: "teams",
  rateLimit: "account",
  params: memberParamsSchema,
  body: changeRoleSchema,
  response: memberSchema,
  errors: {
    403: "The caller's role is too low",
    404: "No such team among the caller's, or no such member in it",
    409: "The team's last owner cannot be lowered (`last_owner`)",
  },
});

export const removeMemberEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}/members/{user_id}",
  tag,
  summary: "Remove a member (admin), or leave the team (the caller's own id)",
  description:
    "Takes effect on the member's next request; what they made stays the team's. An owner is removed only by an owner. With the member go their pending invitations and the connectors and device logins they approved for the team; an admin's or owner's removal also revokes the team's API key, which they could read (the owners are told: make a new one), and the named keys they made.",
  auth: "teams",
  rateLimit: "account",
  params: memberParamsSchema,
  status: 204,
  response: null,
  errors: {
    403: "The caller's role is too low",
    404: "No such team among the caller's, or no such member in it",
    409: "The team's last owner cannot be removed or leave (`last_owner`)",
  },
});

export const createInvitationEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/invitations",
  tag,
  summary: "Invite a person by e-mail (admin): a single-use link, mailed",
  description:
    "The link (/invite/{token}) is mailed through SMTP_URL, or printed to the server log where no mail server is set. It works once, until `expires_at` (TEAM_INVITATION_DAYS), and only for a person signed in with that address. A pending invitation to the same address is replaced.",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  body: createInvitationSchema,
  status: 201,
  response: invitationSchema,
  errors: {
    403: "The caller is not an admin of the team (or invites an owner without being one)",
    404: notYours,
    409: "Already a member (`already_member`), or TEAM_MAX_MEMBERS (`too_many_members`) or TEAM_MAX_PENDING_INVITATIONS (`too_many_invitations`) reached",
    429: "TEAM_INVITATIONS_PER_DAY sent in the last 24 hours (`invitations_exhausted`)",
    502: "The mail server failed; the invitation was withdrawn",
  },
});

export const listInvitationsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/invitations",
  tag,
  summary: "The team's pending invitations (admin)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: invitationListSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

export const revokeInvitationEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}/invitations/{invitation_id}",
  tag,
  summary: "Revoke a pending invitation (admin): its link stops working",
  auth: "teams",
  rateLimit: "account",
  params: invitationParamsSchema,
  status: 204,
  response: null,
  errors: { 403: "The caller is not an admin of the team", 404: "No such team, or no pending invitation with this id" },
});

export const acceptInvitationEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/invitations/accept",
  tag,
  summary: "Join a team with an invitation's token (a person signed in with the invited e-mail)",
  description:
    "An invitation gives no more than its sender may still give: one whose sender has left the team, or no longer has a role that may give the invited one, is void.",
  auth: "teams",
  rateLimit: "account",
  body: acceptInvitationSchema,
  response: acceptedSchema,
  errors: {
    403: "The caller's e-mail is not the invited one, or not verified (`invitation_email_mismatch`)",
    404: "Unknown, used, revoked, expired, or from a sender who may no longer give its role (`invitation_invalid`)",
    409: "The team is full (`too_many_members`)",
  },
});

export const teamAuditEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/audit",
  tag,
  summary: "The team's audit trail, newest first (admin)",
  description:
    "Who did what: members, roles, invitations, keys, webhooks, follows, billing, publication. Kept when the actor leaves (`actor.label`). Page with `next_cursor`.",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  query: auditQuerySchema,
  response: auditListSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

export const teamUsageEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/usage",
  tag,
  summary: "The team's usage this period, and each member's (admin)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: teamUsageSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

export const teamAuditExportEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/audit/export",
  tag,
  summary: "The team's audit trail as a file: CSV or JSON Lines, oldest first (admin)",
  description:
    "Streamed as it is read, in batches, so a trail of any length can be downloaded. CSV has a header row (id, at, actor_id, actor_label, action, target, data: the event's data as JSON); a cell that an office suite would run as a formula (starting with = + - @) is prefixed with a single quote. JSON Lines: one AuditEvent-like object per line. Filters combine: `actor` (a person's id or the label the trail keeps), `action`, and `from` (inclusive) to `to` (exclusive).",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  query: auditExportQuerySchema,
  content: { "text/csv": "text", "application/jsonl": "text" },
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

const keysDescription =
  "A team's named keys act in the team with no person behind them, each limited to its scopes (an operation outside them is a 403 `forbidden` naming the scope) and, if it has one, until its expiry (then a 401 `invalid_token`). No key makes or shows keys. The contract's one key slot (/v1/me/api-key) is unchanged beside them. A key is revoked when the admin or owner who made it (and saw its secret) is removed, leaves or is lowered below admin; the others stay.";

export const createTeamKeyEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/keys",
  tag,
  summary: "Make a named key with scopes and an optional expiry (admin); its secret is in this answer only",
  description: keysDescription,
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  body: createTeamKeySchema,
  status: 201,
  response: createdTeamKeySchema,
  errors: {
    403: "The caller is not an admin of the team",
    404: notYours,
    409: "The team has the most keys allowed (`too_many_keys`)",
  },
});

export const listTeamKeysEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/keys",
  tag,
  summary: "The team's named keys, newest first, without secrets (admin)",
  description: keysDescription,
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: teamKeyListSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

export const revokeTeamKeyEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}/keys/{key_id}",
  tag,
  summary: "Revoke a named key (admin): it answers 401 from the next request on",
  auth: "teams",
  rateLimit: "account",
  params: teamKeyParamsSchema,
  status: 204,
  response: null,
  errors: {
    403: "The caller is not an admin of the team",
    404: "No such team among the caller's, or no such key in it",
  },
});
