import { defineEndpoint } from "@/lib/http/endpoint";
import { apiKeyStateSchema, meSchema, sessionsEndedSchema } from "@/lib/auth/schemas";

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
