import nodemailer from "nodemailer";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";

// Invitations go out as sign-in links do (lib/auth/nextauth.ts): by SMTP_URL from EMAIL_FROM, or, where no mail
// server is set, as a line in the server log for the operator to pass on.

const DEADLINE_MS = 15_000;

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
  const settings = env();
  if (!settings.SMTP_URL) {
    log.info({ email: mail.to, url: mail.url, team: mail.teamName }, "team invitation link");
    return;
  }
  const transport = nodemailer.createTransport({
    url: settings.SMTP_URL,
    connectionTimeout: DEADLINE_MS,
    greetingTimeout: DEADLINE_MS,
    socketTimeout: DEADLINE_MS,
  });
  try {
    await transport.sendMail({
      from: settings.EMAIL_FROM,
      to: mail.to,
      subject: `You are invited to ${mail.teamName} on Verbatim`,
      text: invitationText(mail),
    });
  } finally {
    transport.close();
  }
}
