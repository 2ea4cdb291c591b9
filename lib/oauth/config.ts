import { env } from "@/lib/env";
import { apiResource, EXTENSION_SCOPE, issuer, mcpResource } from "@/lib/auth/resources";

export { apiResource, currentResource, EXTENSION_SCOPE, issuer, mcpResource, serverUrl } from "@/lib/auth/resources";

// The authorization server's fixed choices (lifetimes, scopes, resources) and its URLs, all derived
// from APP_URL so the issuer, the metadata and the `iss` of every redirect agree.

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
export const AUTHORIZATION_CODE_SECONDS = 10 * 60;
export const DEVICE_CODE_SECONDS = 15 * 60;
export const DEVICE_POLL_INTERVAL = 5;
/** RFC 8628 3.5: each slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_STEP = 5;

/**
 * `api`: everything the account's delegated credentials may use (lib/http/permissions.ts, the `use` and `mcp` rows).
 * `extension`: the browser extension's, which asks for it alone: the `use` row through /v1, never the MCP endpoint
 * (principal.ts makes its tokens the `extension` credential kind).
 */
export const SCOPES = ["api", "extension"] as const;
export const DEFAULT_SCOPE = "api";
export const UNKNOWN_SCOPE = "Unknown scope; the scopes are 'api' and 'extension' (which is asked for alone).";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const GRANT_TYPES = ["authorization_code", "refresh_token", DEVICE_GRANT] as const;

/**
 * The resource a `resource` parameter names, canonicalised, or null when it is not one of ours.
 * The app's own origin (with or without a trailing slash) stands for the /v1 API.
 */
export function canonicalResource(value: string | undefined | null, appUrl = env().APP_URL): string | null {
  if (value === undefined || value === null || value === "") return apiResource(appUrl);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.hash || url.username || url.password) return null;
  const text = `${url.origin}${url.pathname}`.replace(/\/+$/, "") + url.search;
  if (text === issuer(appUrl) || text === apiResource(appUrl)) return apiResource(appUrl);
  if (text === mcpResource(appUrl)) return mcpResource(appUrl);
  return null;
}

/** The scope a request asks for, normalized; null when it names a scope we do not have. */
export function grantedScope(requested: string | undefined | null): string | null {
  if (!requested || !requested.trim()) return DEFAULT_SCOPE;
  const names = [...new Set(requested.trim().split(/\s+/))];
  if (!names.every((name) => (SCOPES as readonly string[]).includes(name))) return null;
  if (names.includes(EXTENSION_SCOPE) && names.length > 1) return null;
  return names.join(" ");
}
