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

import { atLeast, type TeamRoleName } from "@/lib/roles/ladder";

export const CREDENTIAL_KINDS = ["session", "api_key", "oauth_app", "device_login", "extension"] as const;
/**
 * session: the dashboard's cookie; api_key: `vb_…`; oauth_app: a connector's access token; device_login: a token from
 * the device flow (the CLI); extension: an access token granted with the `extension` scope (the browser extension:
 * everyday use through /v1, never the MCP endpoint).
 */
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
  /**
   * Export destinations (a folder on the server, a Notion database) and their tokens: like webhooks, they outlive
   * any grant and receive the account's transcripts on their own.
   */
  destinations: OWNER,
  /**
   * Start a batch of up to a thousand links, and retry its failed items: a thousand transcriptions spent at once, so
   * the account's own credentials only; a delegated token may read batches and download their results (`use`).
   */
  batches: OWNER,
  /** Approve a connector (the consent decision) or a device login: creates new delegated credentials. */
  grants: OWNER,
  /** Create, manage and join teams (/v1/teams/**, /v1/invitations/**): a person's own credentials only. */
  teams: OWNER,
  /** Choose the dashboard's workspace (a cookie): the browser's own choice, so a session only. */
  workspace: ["session"],
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
  destinations: "managing export destinations",
  batches: "starting or retrying batches of links",
  grants: "approving apps and device logins",
  teams: "managing teams",
  workspace: "choosing the dashboard's workspace",
};

/** The 403's detail when `kind` may not do what `requirement` needs (for the body field `field`, when one needs it). */
export function refusalDetail(requirement: Permission, field?: string): string {
  const what = requirement === "use" || requirement === "mcp" ? "this operation" : REFUSAL[requirement];
  if (field)
    return `An OAuth app's, a device login's or the browser extension's token cannot set ${field}: only the account's own credentials may (the API key, or the dashboard). Send the request without it.`;
  return `An OAuth app's, a device login's or the browser extension's token cannot be used for ${what}; sign in to the dashboard (or use the API key).`;
}

// ---------- Roles: who in a workspace may do what ----------
//
// The second column of the same table: the least role the caller must hold in the account acted in (a person
// owns their own account, so a personal account is never refused here). It follows from the row and the method,
// with the overrides below: reading is a viewer's, every other use a member's, the account's administration
// (key, webhooks, follows) an admin's, and money the owner's. What is a person's own (their browser sessions,
// connected apps, approving a grant) needs a person behind the credential, whatever the workspace: a team's API
// key, which no one person holds, is refused. Team management (/v1/teams, /v1/invitations) needs a person too;
// its own handlers check the role in the team the path names.

/** A team's roles (lib/roles/ladder.ts). */
export type Role = TeamRoleName;
/** The least role an operation needs, or "person": a person's own, for any role but never a team's key. */
export type RoleRequirement = Role | "person";

const ROLE_BY_ROW: Record<Exclude<Permission, "use" | "mcp">, RoleRequirement> = {
  api_keys: "admin",
  sessions: "person",
  connections: "person",
  billing: "owner",
  webhooks: "admin",
  destinations: "admin",
  batches: "member",
  grants: "person",
  workspace: "person",
  teams: "person",
};

/** Operations whose role is not the one their row and method give ("METHOD path"). */
const ROLE_OVERRIDES: Readonly<Record<string, RoleRequirement>> = {
  // An export only reads the library: a viewer's, as reading a transcript is (a team key's `read` scope).
  "POST /v1/exports": "viewer",
  // The masked key is the key's administration.
  "GET /v1/me/api-key": "admin",
  // Follows bring new entries into the library and spend its allowance on a schedule: the account's administration.
  "POST /v1/follows": "admin",
  "PATCH /v1/follows/{id}": "admin",
  "DELETE /v1/follows/{id}": "admin",
  "POST /v1/follows/{id}/check": "admin",
  // A show given to an alert is followed when it is not yet: a follow made.
  "POST /v1/alerts/{id}/follows": "admin",
};

const PERSON_PATHS = ["/v1/teams", "/v1/invitations"];

/** The least role `method path` needs in the account acted in (`auth`: its row of the credential table). */
export function requiredRole(method: string, path: string, auth: AuthRequirement): RoleRequirement | null {
  if (auth === "none") return null;
  const override = ROLE_OVERRIDES[`${method} ${path}`];
  if (override) return override;
  if (PERSON_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return "person";
  if (auth === "use") return method === "GET" ? "viewer" : "member";
  if (auth === "mcp") return "viewer";
  return ROLE_BY_ROW[auth];
}

/** The least role a body field's row (fieldAuth) needs, whatever the operation. */
export function fieldRole(permission: Permission): RoleRequirement {
  return permission === "use" || permission === "mcp" ? "viewer" : ROLE_BY_ROW[permission];
}

/** Whether a caller holding `role` (with a person behind the credential or not) meets `needed`. */
export function roleMeets(needed: RoleRequirement | null, role: Role, hasPerson: boolean): boolean {
  if (needed === null) return true;
  if (needed === "person") return hasPerson;
  return atLeast(role, needed);
}

/** The 403's detail when the caller's role (or a team's key) falls short of `needed`. */
export function roleRefusalDetail(needed: RoleRequirement, role: Role, field?: string): string {
  const what = field ? `Setting ${field}` : "This operation";
  if (needed === "person")
    return `${what} is a person's own: a team's API key acts for no one person. Use your own credentials (the dashboard, or your account's API key).`;
  return `${what} needs the ${needed} role in this team; you are ${role === "admin" ? "an" : "a"} ${role}.`;
}

// ---------- Scopes: what a team key may do ----------
//
// The third column: a team's named key (lib/auth/team-keys.ts, lib/teams/keys.ts) acts as an admin with no person behind it, narrowed
// to its scopes. The scope an operation needs follows from its least role, with the overrides below: reading is
// `read`, every other use of the library `transcribe` (corrections, imports, uploads, alerts with it), publication
// `publish`, the account's administration (webhooks, follows) `manage`. No scope makes or shows a key, and what is
// the owner's or a person's own stays refused as the role column already says.

export const KEY_SCOPES = ["read", "transcribe", "publish", "manage"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** What no team key may do, whatever its scopes. */
export const NO_KEY = "no_key" as const;
export type ScopeRequirement = KeyScope | typeof NO_KEY;

const SCOPE_BY_ROLE: Record<Role, ScopeRequirement> = {
  viewer: "read",
  member: "transcribe",
  admin: "manage",
  owner: NO_KEY,
};

const SCOPE_OVERRIDES: Readonly<Record<string, ScopeRequirement>> = {
  "POST /v1/publish": "publish",
  "DELETE /v1/publish/{slug}": "publish",
};

/** The scope a team key needs for `method path` (null: the operation needs no credential). */
export function requiredScope(method: string, path: string, auth: AuthRequirement): ScopeRequirement | null {
  if (auth === "none") return null;
  if (auth === "api_keys") return NO_KEY;
  const override = SCOPE_OVERRIDES[`${method} ${path}`];
  if (override) return override;
  const role = requiredRole(method, path, auth);
  if (role === null) return null;
  return role === "person" ? NO_KEY : SCOPE_BY_ROLE[role];
}

/** The scope a body field's row (fieldAuth) needs of a team key, whatever the operation. */
export function fieldScope(permission: Permission): ScopeRequirement {
  if (permission === "api_keys") return NO_KEY;
  const role = fieldRole(permission);
  return role === "person" ? NO_KEY : SCOPE_BY_ROLE[role];
}

/** Whether a team key with `scopes` meets `needed` (null: no credential needed). */
export function scopeMeets(needed: ScopeRequirement | null, scopes: readonly KeyScope[]): boolean {
  return needed === null || (needed !== NO_KEY && scopes.includes(needed));
}

/** The 403's detail when a team key lacks the scope `needed`. */
export function scopeRefusalDetail(needed: ScopeRequirement, scopes: readonly KeyScope[]): string {
  if (needed === NO_KEY) return "A team key cannot be used for this operation; use a person's own credentials.";
  return `This operation needs a key with the '${needed}' scope; this key has ${scopes.length ? scopes.map((s) => `'${s}'`).join(", ") : "none"}.`;
}
