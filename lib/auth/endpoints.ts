import { defineEndpoint } from "@/lib/http/endpoint";
import {
  apiKeyStateSchema,
  chooseWorkspaceSchema,
  meSchema,
  sessionsEndedSchema,
  workspaceSchema,
} from "@/lib/auth/schemas";

const tag = "API keys";

export const getMeEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me",
  tag: "Account",
  summary: "The caller: user id, email, name, tier, and which credential was used",
  auth: "use",
  rateLimit: "account",
  response: meSchema,
});

export const getApiKeyEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/api-key",
  tag,
  summary: "Show the caller's API key (masked prefix) and tier",
  auth: "use",
  rateLimit: "account",
  response: apiKeyStateSchema,
});

export const ensureApiKeyEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/api-key/ensure",
  tag,
  summary: "Create the caller's API key if there is none",
  description: "Idempotent. Returns the plaintext key only in the call that creates it.",
  auth: "api_keys",
  rateLimit: "account",
  response: apiKeyStateSchema,
});

export const regenerateApiKeyEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/api-key/regenerate",
  tag,
  summary: "Replace the caller's API key",
  description: "The old key stops working on the very next request. The new plaintext is returned once.",
  auth: "api_keys",
  rateLimit: "apiKeyRegenerate",
  response: apiKeyStateSchema,
});

export const endSessionsEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/me/sessions/revoke",
  tag: "Sessions",
  summary: "Sign out everywhere: end every dashboard session of the caller",
  description:
    "Every session cookie issued so far stops working at once, the caller's own included. API keys and OAuth tokens keep working (regenerate the key to end those).",
  auth: "sessions",
  rateLimit: "account",
  response: sessionsEndedSchema,
});

export const chooseWorkspaceEndpoint = defineEndpoint({
  method: "PUT",
  path: "/v1/me/workspace",
  tag: "Account",
  summary: "Choose the workspace the dashboard acts in: one of your teams, or your own account",
  description:
    "Sets the dashboard's workspace cookie after checking that you are a member of the team (`null`, or your own id: your own account). Every later request with this browser session acts in that workspace, with your role there, checked again on each request. A session only.",
  auth: "workspace",
  rateLimit: "account",
  body: chooseWorkspaceSchema,
  response: workspaceSchema,
  errors: { 404: "not a team you are a member of" },
});
