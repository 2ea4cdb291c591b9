import { cookies } from "next/headers";
import { auth } from "@/lib/auth/nextauth";
import { requiredRole, roleMeets, type AuthRequirement, type RoleRequirement } from "@/lib/http/permissions";
import type { Method } from "@/lib/http/endpoint";
import { WORKSPACE_COOKIE, workspaceFor, type Workspace } from "@/lib/membership/workspace";
import { listWorkspaces, mayGrant, type WorkspaceChoice } from "@/lib/auth/workspaces";

/** Where the signed-in person's dashboard acts now: the workspace its cookie names, checked against Membership. */
export async function dashboardWorkspace(): Promise<{ personId: string; workspace: Workspace } | null> {
  const session = await auth();
  const personId = session?.user?.id;
  if (!personId) return null;
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  // A team that requires the provider, chosen before this session: the page shows the person's own account.
  const viaProvider = (session as { viaProvider?: boolean }).viaProvider === true;
  return { personId, workspace: (await workspaceFor(personId, chosen, { session: { viaProvider, fallback: true } }))! };
}

/** The dashboard's header: the workspace acted in and every one the person may switch to. */
export async function dashboardWorkspaces(): Promise<{ current: Workspace; choices: WorkspaceChoice[] } | null> {
  const found = await dashboardWorkspace();
  if (!found) return null;
  return { current: found.workspace, choices: await listWorkspaces(found.personId) };
}

/**
 * The role a page's operation needs that the workspace's role falls short of, or null when it may: a page reads
 * the same table the API enforces (lib/http/permissions.ts), so it cannot offer what the API would refuse.
 */
export function missingRole(
  workspace: Workspace,
  operation: { method: Method; path: string; auth: AuthRequirement },
): RoleRequirement | null {
  const needed = requiredRole(operation.method, operation.path, operation.auth);
  return roleMeets(needed, workspace.role, true) ? null : needed;
}

/**
 * The workspaces a grant approved now may act in (the person's own, and teams where they are a member or more),
 * starting at the dashboard's when it is one of them: what the consent and device pages offer.
 */
export async function grantWorkspaces(personId: string): Promise<{ choices: WorkspaceChoice[]; initial: string }> {
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const choices = (await listWorkspaces(personId)).filter((choice) => mayGrant(choice.role));
  return { choices, initial: choices.some((choice) => choice.id === chosen) ? chosen! : personId };
}
