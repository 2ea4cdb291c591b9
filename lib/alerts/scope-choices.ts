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
}

export async function alertScopeChoices(personId: string, workspace: Workspace, db?: Db): Promise<AlertScopeChoices> {
  db ??= await getDb();
  const [teams, follows] = await Promise.all([
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
  ]);
  return {
    library: { kind: workspace.kind, name: workspace.name },
    teams: teams.map((m) => ({ id: m.team.id, name: m.team.name })),
    follows: follows.map((f) => ({ id: f.id, title: f.title ?? f.url })),
  };
}
