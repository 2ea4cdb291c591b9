import { env } from "@/lib/env";
import { DEFAULT_SCOPE, issuer, mcpResource } from "@/lib/oauth/config";

// The MCP endpoint as an OAuth protected resource (RFC 9728, MCP authorization 2025-11-25): its exact URL is
// the resource tokens are bound to, and its metadata names this app as the authorization server.
// (The authorization server's own configuration lives with it; these derive from APP_URL the same way.)

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** Where a client finds the metadata, per RFC 9728 3.1: the well-known prefix, then the resource's path. */
export function resourceMetadataUrl(appUrl = env().APP_URL): string {
  const base = new URL(issuer(appUrl));
  return `${base.origin}${PROTECTED_RESOURCE_PATH}${base.pathname.replace(/\/+$/, "")}${MCP_PATH}`;
}

/** The protected resource metadata document (RFC 9728 2). */
export function protectedResourceMetadata(appUrl = env().APP_URL) {
  return {
    resource: mcpResource(appUrl),
    authorization_servers: [issuer(appUrl)],
    // The extension scope never opens this resource (its credential kind is not in the `mcp` row).
    scopes_supported: [DEFAULT_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "Verbatim MCP",
    resource_documentation: `${issuer(appUrl)}/docs`,
  };
}

/** The 401 challenge: where the metadata is (RFC 9728 5.1), and why the token failed when one was sent. */
export function wwwAuthenticate(error?: "invalid_token", appUrl = env().APP_URL): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(appUrl)}"`, `scope="${DEFAULT_SCOPE}"`];
  if (error) parts.push(`error="${error}"`);
  return `Bearer ${parts.join(", ")}`;
}

/**
 * DNS-rebinding protection (MCP transport spec): a browser's Origin must be the app's own. Programs send no
 * Origin and pass; "null" (sandboxed frames, file:) and anything unparsable are refused.
 */
export function originAllowed(origin: string | null, appUrl = env().APP_URL): boolean {
  if (origin === null) return true;
  try {
    return new URL(origin).origin === new URL(appUrl).origin && origin !== "null";
  } catch {
    return false;
  }
}

/** The methods served at the MCP paths, for the request guard's 405s (lib/http/request-guard.ts). */
export const MCP_ROUTES = [
  { method: "GET", path: MCP_PATH },
  { method: "POST", path: MCP_PATH },
  { method: "DELETE", path: MCP_PATH },
  { method: "GET", path: PROTECTED_RESOURCE_PATH },
  { method: "GET", path: `${PROTECTED_RESOURCE_PATH}${MCP_PATH}` },
] as const;
