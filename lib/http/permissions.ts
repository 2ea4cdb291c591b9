// What each kind of credential may do: the one table. Every endpoint names the row it needs
// (`auth` in its definition, lib/*/endpoints.ts); withApi authenticates the caller and checks the row, and
// /openapi.json documents the same rows. A credential kind not in the row gets 403 `forbidden`.
//
// The rule behind the rows: the owner's own credentials (a signed-in browser session, and the API key,
// which only a signed-in session can create and which can only replace itself) may administer the account.
// Delegated credentials (an OAuth connector's access token, a device login's token) may only USE the
// service: nothing they do may outlive or widen their grant, so they can never mint an API key, end the
// user's browser sessions, see or disconnect other apps, approve further logins, or change what the user
// pays. Disconnecting the app (or logging the device out) therefore ends everything it could do.

export const CREDENTIAL_KINDS = ["session", "api_key", "oauth_app", "device_login"] as const;
/** session: the dashboard's cookie; api_key: `vb_…`; oauth_app: a connector's access token; device_login: a token from the device flow (the CLI). */
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

const OWNER: readonly CredentialKind[] = ["session", "api_key"];

export const PERMISSIONS = {
  /** Everyday use: transcribe, read and delete history, publish, imports, uploads, usage, who am I, the masked key. */
  use: CREDENTIAL_KINDS,
  /** The MCP endpoint: bearer credentials only (no cookie: any page could drive it). A token must also be bound to /mcp (RFC 8707). */
  mcp: ["api_key", "oauth_app", "device_login"],
  /** Create or replace the API key (the plaintext is returned): never for a token, which would outlive its grant. */
  api_keys: OWNER,
  /** End every browser session ("sign out everywhere"). */
  sessions: OWNER,
  /** List and disconnect connected apps and device logins. */
  connections: OWNER,
  /** Checkout, the billing portal, cancel/resume/change the plan, reconcile. */
  billing: OWNER,
  /**
   * Webhook endpoints and their signing secrets: they outlive any grant and receive the account's events. Also a
   * request's own `webhook_url` (endpoint fieldAuth): its deliveries carry the account's request-secret signature.
   */
  webhooks: OWNER,
  /** Approve a connector (the consent decision) or a device login: creates new delegated credentials. */
  grants: OWNER,
  /** Create, manage and join teams (/v1/teams/**, /v1/invitations/**): a person's own credentials only. */
  teams: OWNER,
} as const satisfies Record<string, readonly CredentialKind[]>;

export type Permission = keyof typeof PERMISSIONS;

/** What an endpoint declares: no credential at all, or the row of the table it needs. */
export type AuthRequirement = "none" | Permission;

export function allowedKinds(requirement: AuthRequirement): readonly CredentialKind[] {
  return requirement === "none" ? [] : PERMISSIONS[requirement];
}

export function isAllowed(requirement: AuthRequirement, kind: CredentialKind): boolean {
  return allowedKinds(requirement).includes(kind);
}

const REFUSAL: Record<Exclude<Permission, "use" | "mcp">, string> = {
  api_keys: "managing the API key",
  sessions: "ending browser sessions",
  connections: "managing connected apps",
  billing: "billing changes",
  webhooks: "managing webhook endpoints",
  grants: "approving apps and device logins",
  teams: "managing teams",
};

/** The 403's detail when `kind` may not do what `requirement` needs (for the body field `field`, when one needs it). */
export function refusalDetail(requirement: Permission, field?: string): string {
  const what = requirement === "use" || requirement === "mcp" ? "this operation" : REFUSAL[requirement];
  if (field)
    return `An OAuth app's or a device login's token cannot set ${field}: only the account's own credentials may (the API key, or the dashboard). Send the request without it.`;
  return `An OAuth app's or a device login's token cannot be used for ${what}; sign in to the dashboard (or use the API key).`;
}
