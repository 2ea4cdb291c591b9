import { env } from "@/lib/env";

// The authorization server's fixed choices (lifetimes, scopes, resources) and its URLs, all derived
// from APP_URL so the issuer, the metadata and the `iss` of every redirect agree.

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
export const AUTHORIZATION_CODE_SECONDS = 10 * 60;
export const DEVICE_CODE_SECONDS = 15 * 60;
export const DEVICE_POLL_INTERVAL = 5;
/** RFC 8628 3.5: each slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_STEP = 5;

/** One scope today: everything an API key can do on the caller's account. */
export const SCOPES = ["api"] as const;
export const DEFAULT_SCOPE = "api";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const GRANT_TYPES = ["authorization_code", "refresh_token", DEVICE_GRANT] as const;

/** The issuer: APP_URL's origin plus its path, without a trailing slash (RFC 8414 3.3 compares it exactly). */
export function issuer(appUrl = env().APP_URL): string {
  return appUrl.replace(/\/+$/, "");
}

export function serverUrl(path: string, appUrl = env().APP_URL): string {
  return `${issuer(appUrl)}${path}`;
}

/** The protected resources tokens can be bound to (RFC 8707): the /v1 API and the MCP endpoint. */
export function apiResource(appUrl = env().APP_URL): string {
  return serverUrl("/v1", appUrl);
}
export function mcpResource(appUrl = env().APP_URL): string {
  return serverUrl("/mcp", appUrl);
}

/**
 * The resource a stored code or token is bound to, under today's APP_URL. A binding stands for its
 * role (the /v1 API or the MCP endpoint), not for the address the server had when it was issued:
 * changing APP_URL (another port, a domain) must not end CLI or MCP logins, and a token still opens
 * only the kind of resource it was issued for.
 */
export function currentResource(stored: string | null | undefined, appUrl = env().APP_URL): string {
  return stored != null && /\/mcp$/.test(stored) ? mcpResource(appUrl) : apiResource(appUrl);
}

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
  return names.join(" ");
}
