import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import type { Principal } from "@/lib/auth/principal";
import type { Me, WorkspaceView } from "@/lib/auth/schemas";

/** GET /v1/me: who the credential belongs to (what `verbatim whoami` shows), and the workspace it acts in. */
export async function getMe(principal: Principal): Promise<Me> {
  const db = await getDb();
  const personId = principal.personId ?? principal.userId;
  const [user, account] = await Promise.all([
    db.user.findUnique({
      where: { id: personId },
      select: { id: true, email: true, name: true, subscription: { select: { tier: true } } },
    }),
    personId === principal.userId
      ? null
      : db.user.findUnique({ where: { id: principal.userId }, select: { subscription: { select: { tier: true } } } }),
  ]);
  if (!user) throw errors.invalidToken();
  const tier = (account ?? user).subscription?.tier ?? "free";
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    tier,
    via: principal.via,
    workspace: workspaceView(principal, user.name),
  };
}

/** The workspace a principal acts in, as /v1/me and PUT /v1/me/workspace say it. */
export function workspaceView(principal: Principal, personName: string | null): WorkspaceView {
  if (principal.team)
    return {
      id: principal.userId,
      kind: "team",
      name: principal.team.name,
      slug: principal.team.slug,
      role: principal.role,
    };
  return { id: principal.userId, kind: "person", name: personName, slug: null, role: principal.role };
}
