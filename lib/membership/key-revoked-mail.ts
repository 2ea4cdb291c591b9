import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";
import type { KeyRevoked } from "@/lib/membership/role-loss";
import { sendTeamMail } from "@/lib/membership/team-mail";

const WHY: Record<KeyRevoked["why"], string> = {
  "member.removed": "was removed from the team",
  "member.left": "left the team",
  "member.role_changed": "no longer has a role that may read it",
};

export function keyRevokedText(revoked: KeyRevoked, teamName: string, keysUrl: string): string {
  return [
    `The API key of the team "${teamName}" on Verbatim (${revoked.prefix}…) was revoked: ${revoked.member}, who could read it, ${WHY[revoked.why]}.`,
    "",
    "Programs that used it now get 401. Make a new key and give it to those who should have it:",
    keysUrl,
    "(choose the team in the dashboard's workspace switcher first).",
  ].join("\n");
}

/**
 * Tells the team's owners that its key was revoked, by mail (or the server log), once the change is committed. A
 * mail that fails is logged, not thrown: the removal has happened, and the trail says it (key.revoked).
 */
export async function tellOwnersKeyRevoked(revoked: readonly KeyRevoked[]): Promise<void> {
  if (revoked.length === 0) return;
  const db = await getDb();
  const keysUrl = new URL("/dashboard/keys", env().APP_URL).toString();
  for (const one of revoked) {
    const team = await db.user.findUnique({
      where: { id: one.teamId },
      select: {
        name: true,
        teamMembers: { where: { role: "owner" }, select: { user: { select: { email: true } } } },
      },
    });
    const teamName = team?.name ?? "";
    for (const owner of team?.teamMembers ?? []) {
      if (!owner.user.email) continue;
      try {
        await sendTeamMail({
          to: owner.user.email,
          subject: `The API key of ${teamName} on Verbatim was revoked`,
          text: keyRevokedText(one, teamName, keysUrl),
          logLine: "team key revoked",
          logFields: { team: teamName, team_id: one.teamId, member: one.member, reason: one.why },
        });
      } catch (error) {
        log.warn({ err: error, teamId: one.teamId }, "team key revoked mail failed");
      }
    }
  }
}
