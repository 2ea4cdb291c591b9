import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import type { TeamRole } from "@/lib/generated/prisma/client";
import { workspaceFor } from "@/lib/membership/workspace";
import { atLeast } from "@/lib/roles/ladder";

/** One workspace a person may act in, for the dashboard's switcher and the consent pages. */
export interface WorkspaceChoice {
  /** The account: the person's own id, or a team's. */
  id: string;
  kind: "person" | "team";
  name: string | null;
  slug: string | null;
  role: TeamRole;
}

/** The person's own account first, then their teams by name. */
export async function listWorkspaces(personId: string): Promise<WorkspaceChoice[]> {
  const db = await getDb();
  const [person, memberships] = await Promise.all([
    db.user.findUnique({ where: { id: personId }, select: { name: true, email: true } }),
    db.membership.findMany({
      where: { userId: personId },
      select: { role: true, team: { select: { id: true, name: true, slug: true } } },
      orderBy: [{ team: { name: "asc" } }, { teamId: "asc" }],
    }),
  ]);
  return [
    { id: personId, kind: "person", name: person?.name ?? person?.email ?? null, slug: null, role: "owner" },
    ...memberships.map((m) => ({
      id: m.team.id,
      kind: "team" as const,
      name: m.team.name,
      slug: m.team.slug,
      role: m.role,
    })),
  ];
}

/** Where a grant may act: the person's own account or a team they can transcribe in (member or above). */
export function mayGrant(role: TeamRole): boolean {
  return atLeast(role, "member");
}

/**
 * The workspace a grant approved now will act in (null: the person's own account). A team the person is not
 * in is a 404 (no leak of which teams exist); one where they only view is a 403: a grant acts with the
 * person's role, and a viewer's connector could do nothing a viewer cannot do in the dashboard.
 */
export async function grantWorkspaceId(
  personId: string,
  requested: string | null | undefined,
  session?: { viaProvider: boolean },
): Promise<string | null> {
  // A team that requires the provider is granted to only from a session that came through it.
  const workspace = await workspaceFor(personId, requested, { strict: true, session });
  if (!workspace) throw errors.notFound("No such team, or you are not a member of it.");
  if (workspace.kind === "person") return null;
  if (!mayGrant(workspace.role))
    throw errors.forbidden("Connecting an app or a device to a team needs the member role in it; you are a viewer.");
  return workspace.accountId;
}
