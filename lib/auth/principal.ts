import { errors } from "@/lib/http/errors";
import { env } from "@/lib/env";
import { findApiKeyCaller, API_KEY_PREFIX } from "@/lib/auth/api-keys";
import { findTeamKeyCaller, TEAM_KEY_PREFIX } from "@/lib/auth/team-keys";
import { findUserIdByAccessToken } from "@/lib/auth/oauth-tokens";
import { requestSession } from "@/lib/auth/session";
import { cameThroughProvider } from "@/lib/auth/sessions";
import {
  allowedKinds,
  fieldRole,
  isAllowed,
  refusalDetail,
  type CredentialKind,
  type KeyScope,
  type Permission,
} from "@/lib/http/permissions";
import { WORKSPACE_COOKIE, workspaceFor, type Workspace } from "@/lib/membership/workspace";
import type { NextRequest } from "next/server";
import type { ApiKey, TeamRole, Tier } from "@/lib/generated/prisma/client";

/** The credential family /v1/me reports (`via`): connector, device-login and extension tokens are all OAuth tokens. */
export type Credential = "session" | "api_key" | "oauth";

export interface Principal {
  /** The account the credential acts in: the data owner (a person's own id, or a team's). */
  userId: string;
  /** The person behind the credential (for roles, the audit trail, and what is a person's own: sessions,
   * connected apps); null for a team's API key, which no one person holds. */
  personId: string | null;
  /** The person's role in the account (a person owns their own). */
  role: TeamRole;
  via: Credential;
  /** Which kind of credential, for the permission table (lib/http/permissions.ts). */
  kind: CredentialKind;
  /** Read with an API key, in the same query: the caller's tier (for per-tier limits) and the key row. */
  tier?: Tier;
  apiKey?: ApiKey;
  /** A team's named key (lib/auth/team-keys.ts): what it may do, and which one it is (for the audit trail). Absent
   * for every other credential, which the role alone limits. */
  scopes?: readonly KeyScope[];
  teamKey?: { id: string; prefix: string; name: string };
  /** A session's: whether it came through the identity provider (a team may require it: lib/membership/workspace.ts). */
  session?: { viaProvider: boolean };
  /** The account acted in, when it is a team (its name and slug, for /v1/me and the audit trail); absent for a person's own. */
  team?: { name: string | null; slug: string | null };
}

function fromWorkspace(personId: string, workspace: Workspace) {
  return {
    userId: workspace.accountId,
    personId,
    role: workspace.role,
    ...(workspace.kind === "team" ? { team: { name: workspace.name, slug: workspace.slug } } : {}),
  };
}

function bearerToken(header: string): string {
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  if (!match) throw errors.unauthorized("The Authorization header must be 'Bearer <API key>'.");
  return match[1];
}

/**
 * Who is calling, and whether their kind of credential may do what `permission` needs (403 if not).
 * A bearer credential, when sent, must be valid (a bad key is never silently downgraded to the cookie
 * session); otherwise the dashboard session cookie is used if the row allows sessions. An OAuth access
 * token must be bound to `resource` (RFC 8707; default: the /v1 API).
 */
export async function authenticate(
  request: NextRequest,
  permission: Permission,
  resource?: string,
): Promise<Principal> {
  // A person's own operations (choosing the workspace, their teams, their connections) do not act in the workspace:
  // a team the session may not open is not refused there (choosing another workspace is the way out of it).
  const principal = await identify(
    request,
    allowedKinds(permission).includes("session"),
    resource,
    fieldRole(permission) === "person",
  );
  if (!isAllowed(permission, principal.kind)) throw errors.forbidden(refusalDetail(permission));
  return principal;
}

async function identify(
  request: NextRequest,
  sessionAllowed: boolean,
  resource?: string,
  fallback = false,
): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header) {
    const token = bearerToken(header);
    if (token.startsWith(TEAM_KEY_PREFIX)) {
      const caller = await findTeamKeyCaller(token);
      // Like the team's slot key: an admin with no person behind it, narrowed to the key's scopes.
      if (caller)
        return {
          userId: caller.teamId,
          personId: null,
          role: "admin",
          via: "api_key",
          kind: "api_key",
          tier: caller.tier,
          scopes: caller.scopes,
          teamKey: { id: caller.id, prefix: caller.prefix, name: caller.name },
          team: { name: caller.teamName, slug: caller.teamSlug },
        };
    } else if (token.startsWith(API_KEY_PREFIX)) {
      const caller = await findApiKeyCaller(token);
      // A team's key acts in the team as an admin (never its owner: no billing), with no person behind it.
      if (caller)
        return {
          userId: caller.userId,
          personId: caller.accountKind === "team" ? null : caller.userId,
          role: caller.accountKind === "team" ? "admin" : "owner",
          via: "api_key",
          kind: "api_key",
          tier: caller.tier,
          apiKey: caller.apiKey,
          ...(caller.accountKind === "team" ? { team: { name: caller.accountName, slug: caller.accountSlug } } : {}),
        };
    } else {
      const found = await findUserIdByAccessToken(token, resource);
      if (found) {
        // A grant bound to a team the person has left (or never joined) stops: it lost its team.
        const workspace = await workspaceFor(found.userId, found.workspaceId, { strict: true });
        if (workspace)
          return {
            ...fromWorkspace(found.userId, workspace),
            via: "oauth",
            kind: found.extension ? "extension" : found.device ? "device_login" : "oauth_app",
          };
      }
    }
    throw errors.invalidToken();
  }
  if (sessionAllowed) {
    const found = await requestSession(request);
    if (found) {
      assertSameOrigin(request);
      const personId = found.userId;
      const session = { viaProvider: cameThroughProvider(found.method) };
      const choice = { session: { ...session, fallback } };
      // The dashboard's choice of workspace, checked against Membership now: not a member, their own account; a
      // team that requires the provider refuses a session that did not come through it (sso_required).
      const workspace = await workspaceFor(personId, request.cookies.get(WORKSPACE_COOKIE)?.value, choice);
      return { ...fromWorkspace(personId, workspace!), via: "session", kind: "session", session };
    }
  }
  throw errors.unauthorized();
}

/**
 * Cookie-authenticated writes must come from our own pages (defence in depth over SameSite=Lax). `required`: a
 * plain HTML form's post, which only a browser sends and every browser sends with its Origin, must carry one.
 */
export function assertSameOrigin(request: Request, { required = false }: { required?: boolean } = {}) {
  if (request.method === "GET" || request.method === "HEAD") return;
  const origin = request.headers.get("origin");
  if (!origin) {
    if (required) throw errors.forbidden("Cross-site requests with a session cookie are not allowed.");
    return;
  }
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" or garbage: not our page
  }
  if (originHost !== host && origin !== new URL(env().APP_URL).origin) {
    throw errors.forbidden("Cross-site requests with a session cookie are not allowed.");
  }
}

/** The person behind the credential, for what is a person's own (withApi already refused a team's key there). */
export function personOf(principal: Principal): string {
  if (principal.personId === null)
    throw errors.forbidden("This is a person's own: a team's API key acts for no one person.");
  return principal.personId;
}
