import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";
import type { KeyRevoked, OwnersNotice, WebhooksDisabled } from "@/lib/membership/role-loss";
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

const WEBHOOK_WHY: Record<WebhooksDisabled["why"], string> = {
  "member.removed": "was removed from the team",
  "member.left": "left the team",
  "member.role_changed": "no longer has a role that may manage webhooks",
};

export function webhooksDisabledText(disabled: WebhooksDisabled, teamName: string, webhooksUrl: string): string {
  return [
    `Webhook endpoints of the team "${teamName}" on Verbatim were disabled: ${disabled.member}, who registered them, ${WEBHOOK_WHY[disabled.why]}.`,
    "",
    ...disabled.urls.map((url) => `- ${url}`),
    "",
    "They receive no events until enabled again. Check that each address is still one the team controls, then rotate its secret to enable it (the new secret is shown to you only):",
    webhooksUrl,
    "(choose the team in the dashboard's workspace switcher first).",
  ].join("\n");
}

function mailOf(notice: OwnersNotice, teamName: string) {
  const url = (path: string) => new URL(path, env().APP_URL).toString();
  return notice.kind === "key"
    ? {
        subject: `The API key of ${teamName} on Verbatim was revoked`,
        text: keyRevokedText(notice, teamName, url("/dashboard/keys")),
        logLine: "team key revoked",
      }
    : {
        subject: `Webhook endpoints of ${teamName} on Verbatim were disabled`,
        text: webhooksDisabledText(notice, teamName, url("/dashboard/webhooks")),
        logLine: "team webhooks disabled",
      };
}

/**
 * Tells the team's owners what a change of memberships took away (a revoked key, disabled webhook endpoints), by
 * mail (or the server log), once the change is committed. A mail that fails is logged, not thrown: the change has
 * happened, and the trail says it (key.revoked, webhook.disabled).
 */
export async function tellOwners(notices: readonly OwnersNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const db = await getDb();
  for (const notice of notices) {
    const team = await db.user.findUnique({
      where: { id: notice.teamId },
      select: {
        name: true,
        teamMembers: { where: { role: "owner" }, select: { user: { select: { email: true } } } },
      },
    });
    const teamName = team?.name ?? "";
    const mail = mailOf(notice, teamName);
    for (const owner of team?.teamMembers ?? []) {
      if (!owner.user.email) continue;
      try {
        await sendTeamMail({
          to: owner.user.email,
          ...mail,
          logFields: {
            team: teamName,
            team_id: notice.teamId,
            member: notice.member,
            reason: notice.why,
            ...(notice.kind === "webhooks" ? { urls: notice.urls } : {}),
          },
        });
      } catch (error) {
        log.warn({ err: error, teamId: notice.teamId }, `${mail.logLine} mail failed`);
      }
    }
  }
}
