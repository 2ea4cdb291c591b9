import { defineEndpoint } from "@/lib/http/endpoint";
import { teamParamsSchema } from "@/lib/teams/schemas";
import { scimTokenStateSchema } from "@/lib/scim/schemas";

const tag = "Teams";
const notYours = "No team with this id among yours (another team's id answers the same)";
const what =
  "The team's identity provider (Entra ID, Okta …) adds, changes and removes members through SCIM 2.0 at `base_url` with this bearer token; it does SCIM for this team and nothing else. Owners only.";

export const scimTokenStateEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/scim",
  tag,
  summary: "Whether the team has a SCIM token: its prefix, when it was made and last used (owner)",
  description: what,
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: scimTokenStateSchema,
  errors: { 403: "The caller is not the team's owner", 404: notYours },
});

export const makeScimTokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/scim",
  tag,
  summary: "Make the team's SCIM token, replacing any (owner); the token is shown in this answer only",
  description: `${what} The previous token, if any, stops at once.`,
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  status: 201,
  response: scimTokenStateSchema,
  errors: { 403: "The caller is not the team's owner", 404: notYours },
});

export const revokeScimTokenEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}/scim",
  tag,
  summary: "Revoke the team's SCIM token (owner): the identity provider's next request is a 401",
  description: "Members it provisioned stay; nothing more is provisioned or removed until a new token is made.",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  status: 204,
  response: null,
  errors: { 403: "The caller is not the team's owner", 404: notYours },
});
