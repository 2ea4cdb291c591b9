import nodemailer from "nodemailer";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";

// A team's mail goes out as sign-in links do (lib/auth/nextauth.ts): by SMTP_URL from EMAIL_FROM, or, where no mail
// server is set, as a line in the server log for the operator to pass on.

const DEADLINE_MS = 15_000;

export interface TeamMail {
  to: string;
  subject: string;
  text: string;
  /** What the log line says when no mail server is set, and the fields it carries. */
  logLine: string;
  logFields: Record<string, unknown>;
}

export async function sendTeamMail(mail: TeamMail): Promise<void> {
  const settings = env();
  if (!settings.SMTP_URL) {
    log.info({ email: mail.to, ...mail.logFields }, mail.logLine);
    return;
  }
  const transport = nodemailer.createTransport({
    url: settings.SMTP_URL,
    connectionTimeout: DEADLINE_MS,
    greetingTimeout: DEADLINE_MS,
    socketTimeout: DEADLINE_MS,
  });
  try {
    await transport.sendMail({ from: settings.EMAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  } finally {
    transport.close();
  }
}
