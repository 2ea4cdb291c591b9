import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { WORKSPACE_COOKIE, workspaceFor } from "@/lib/membership/workspace";
import { personOf, type Principal } from "@/lib/auth/principal";
import { workspaceView } from "@/lib/auth/get-me";

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * PUT /v1/me/workspace: the dashboard's workspace, kept in a cookie and checked against Membership on every
 * request (principal.ts). A team the person is not in is a 404, as any other team's id is.
 */
export async function chooseWorkspace(
  principal: Principal,
  request: Request,
  workspaceId: string | null,
): Promise<Response> {
  const personId = personOf(principal);
  const workspace = await workspaceFor(personId, workspaceId, { strict: true, session: principal.session });
  if (!workspace) throw errors.notFound("No such team, or you are not a member of it.");
  const db = await getDb();
  const person = await db.user.findUnique({ where: { id: personId }, select: { name: true } });
  const view = workspaceView(
    {
      ...principal,
      userId: workspace.accountId,
      role: workspace.role,
      team: workspace.kind === "team" ? { name: workspace.name, slug: workspace.slug } : undefined,
    },
    person?.name ?? null,
  );
  const response = NextResponse.json(view);
  const secure = new URL(request.url).protocol === "https:";
  if (workspace.kind === "team")
    response.cookies.set(WORKSPACE_COOKIE, workspace.accountId, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      maxAge: YEAR_SECONDS,
    });
  else response.cookies.set(WORKSPACE_COOKIE, "", { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: 0 });
  return response;
}
