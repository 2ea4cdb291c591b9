import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import type { TeamRole } from "@/lib/generated/prisma/client";

/** The dashboard's choice of workspace: a team's account id, checked against Membership on every request. */
export const WORKSPACE_COOKIE = "verbatim-workspace";

/** Where a credential acts: the account that owns the data, and the person's role in it. */
export interface Workspace {
  /** The data owner (a person's own id, or a team's): what every existing query calls `userId`. */
  accountId: string;
  kind: "person" | "team";
  /** A person is the owner of their own account. */
  role: TeamRole;
  name: string | null;
  slug: string | null;
}

/**
 * Whether `value` can be an account's id (cuid, or the letters, digits, `_` and `-` of a fixture's): anything else,
 * which a cookie set by another site on a shared domain can hold (NUL, which PostgreSQL refuses in text), is no
 * workspace and is never sent to the database.
 */
export function couldBeAccountId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

export function personalWorkspace(personId: string): Workspace {
  return { accountId: personId, kind: "person", role: "owner", name: null, slug: null };
}

/** A team that lets its members act in it only with a session made through the identity provider refuses others. */
export function ssoRequired(teamName: string | null): ApiError {
  return new ApiError(
    "sso_required",
    `${teamName ?? "This team"} requires signing in through single sign-on: sign out, then continue with single sign-on.`,
  );
}

export interface WorkspaceOptions {
  /** A grant bound to a team the person has left must stop, not fall back to their own account. */
  strict?: boolean;
  /**
   * For a session: whether it came through the identity provider. A team that requires it refuses a session that
   * did not (ssoRequired), or, with `fallback`, gives the person's own account (the dashboard's pages).
   * Absent for keys and tokens, which are not sessions.
   */
  session?: { viaProvider: boolean; fallback?: boolean };
}

/**
 * The workspace `personId` acts in when `requestedId` was chosen: the team, if they are still a member of it
 * (read now, so a removal or a lowered role holds from the next request); otherwise (a team they are not in, or a
 * value that cannot be an id) their own account, or null when `strict`.
 */
export async function workspaceFor(
  personId: string,
  requestedId: string | null | undefined,
  { strict = false, session }: WorkspaceOptions = {},
): Promise<Workspace | null> {
  if (!requestedId || requestedId === personId) return personalWorkspace(personId);
  if (!couldBeAccountId(requestedId)) return strict ? null : personalWorkspace(personId);
  const db = await getDb();
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId: requestedId, userId: personId } },
    select: { role: true, team: { select: { name: true, slug: true, requireSso: true } } },
  });
  if (!membership) return strict ? null : personalWorkspace(personId);
  if (session && membership.team.requireSso && !session.viaProvider) {
    if (session.fallback) return personalWorkspace(personId);
    throw ssoRequired(membership.team.name);
  }
  return {
    accountId: requestedId,
    kind: "team",
    role: membership.role,
    name: membership.team.name,
    slug: membership.team.slug,
  };
}

/** For team management under /v1/teams/{team_id}: refuses a session not made through the provider (ssoRequired). */
export async function assertSessionMayManage(teamId: string, session: { viaProvider: boolean }): Promise<void> {
  if (session.viaProvider || !couldBeAccountId(teamId)) return;
  const db = await getDb();
  const team = await db.user.findUnique({ where: { id: teamId }, select: { name: true, requireSso: true } });
  if (team?.requireSso) throw ssoRequired(team.name);
}
