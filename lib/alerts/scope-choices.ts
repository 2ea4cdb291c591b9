import { getDb, type Db } from "@/lib/db/client";
import type { Workspace } from "@/lib/membership/workspace";

/** Most follows the dashboard's alert form lists (the API takes ALERT_MAX_FOLLOWS of them per alert). */
const FOLLOWS_LISTED = 500;

/**
 * What the dashboard's alert form may offer, as the API checks it (manage-alerts.ts): the workspace's own library
 * (a team's when acting in one), the libraries of the person's teams (a person's alert over a team: only in their
 * own account), the workspace's follows, and every published transcript.
 */
export interface AlertScopeChoices {
  library: { kind: "person" | "team"; name: string | null };
  teams: { id: string; name: string | null }[];
  follows: { id: string; title: string }[];
  /**
   * Acting in a team: the person's own alerts over this team's library. They are kept in the person's account (the
   * API lists them there), but a member looking at the team's alerts expects to find them too.
   */
  ownOverTeam: { id: string; name: string; paused: boolean; unread: number }[];
}

export async function alertScopeChoices(personId: string, workspace: Workspace, db?: Db): Promise<AlertScopeChoices> {
  db ??= await getDb();
  const [teams, follows, ownOverTeam] = await Promise.all([
    workspace.kind === "person"
      ? db.membership.findMany({
          where: { userId: personId },
          select: { team: { select: { id: true, name: true } } },
          orderBy: [{ team: { name: "asc" } }, { teamId: "asc" }],
        })
      : [],
    db.follow.findMany({
      where: { userId: workspace.accountId },
      select: { id: true, title: true, url: true },
      orderBy: [{ title: "asc" }, { createdAt: "asc" }],
      take: FOLLOWS_LISTED,
    }),
    workspace.kind === "team"
      ? db.alert.findMany({
          where: { userId: personId, scopeKind: "team", scopeIds: { has: workspace.accountId } },
          select: {
            id: true,
            name: true,
            pausedAt: true,
            _count: { select: { matches: { where: { readAt: null } } } },
          },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        })
      : [],
  ]);
  return {
    library: { kind: workspace.kind, name: workspace.name },
    teams: teams.map((m) => ({ id: m.team.id, name: m.team.name })),
    follows: follows.map((f) => ({ id: f.id, title: f.title ?? f.url })),
    ownOverTeam: ownOverTeam.map((a) => ({
      id: a.id,
      name: a.name,
      paused: a.pausedAt !== null,
      unread: a._count.matches,
    })),
  };
}
