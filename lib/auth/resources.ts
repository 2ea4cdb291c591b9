import { env } from "@/lib/env";

// The protected resources an access token is bound to (RFC 8707) and the issuer they are named under, all
// derived from APP_URL. Here rather than in lib/oauth because checking a presented token (oauth-tokens.ts) needs
// them as much as issuing one does; lib/oauth/config.ts re-exports them beside the server's other choices.

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

/** The browser extension's scope: a token granted with it alone is the `extension` credential kind (principal.ts). */
export const EXTENSION_SCOPE = "extension";
