import { sendTeamMail } from "@/lib/membership/team-mail";

export interface InvitationMail {
  to: string;
  teamName: string;
  invitedBy: string;
  role: string;
  url: string;
  expiresAt: Date;
}

export function invitationText(mail: InvitationMail): string {
  return [
    `${mail.invitedBy} invited you to the team "${mail.teamName}" on Verbatim, as ${mail.role}.`,
    "",
    `Accept: ${mail.url}`,
    "",
    `The link works once, for ${mail.to} only, until ${mail.expiresAt.toUTCString()}.`,
    "If you did not expect this, ignore this e-mail.",
  ].join("\n");
}

export async function sendInvitationMail(mail: InvitationMail): Promise<void> {
  await sendTeamMail({
    to: mail.to,
    subject: `You are invited to ${mail.teamName} on Verbatim`,
    text: invitationText(mail),
    logLine: "team invitation link",
    logFields: { url: mail.url, team: mail.teamName },
  });
}
