import nodemailer from "nodemailer";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Alert } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";
import { alertMailText, type AlertMatchedOut } from "@/lib/alerts/events";

// Matches are mailed as sign-in links and invitations are: by SMTP_URL from EMAIL_FROM, or, with no mail server
// set, as a line in the server log. Only to the address of the person who saved the alert (a sign-in proved it),
// and for a team's alert only while they are still a member: no address is ever taken from a request.

const DEADLINE_MS = 15_000;

export type MailOutcome = "sent" | "logged" | "failed" | "off";

/** The person's address, or null when the alert mails no one (off, no creator, a team left). */
async function recipient(alert: Pick<Alert, "email" | "createdById" | "userId">): Promise<string | null> {
  if (!alert.email || !alert.createdById) return null;
  const db = await getDb();
  if (alert.createdById !== alert.userId) {
    const member = await db.membership.findUnique({
      where: { teamId_userId: { teamId: alert.userId, userId: alert.createdById } },
      select: { role: true },
    });
    if (!member) return null;
  }
  const person = await db.user.findUnique({ where: { id: alert.createdById }, select: { email: true } });
  return person?.email ?? null;
}

export async function mailMatches(
  alert: Pick<Alert, "id" | "name" | "query" | "email" | "createdById" | "userId">,
  matches: AlertMatchedOut[],
  digest: boolean,
): Promise<MailOutcome> {
  const to = await recipient(alert);
  if (!to) return "off";
  const text = alertMailText(alert, matches, digest);
  const subject = digest
    ? `Verbatim alert "${alert.name}": ${matches.length} more matches today`
    : `Verbatim alert "${alert.name}": ${matches[0]?.title ?? "a new transcript"}`;
  const settings = env();
  if (!settings.SMTP_URL) {
    log.info({ email: to, alertId: alert.id, subject, text }, "alert e-mail");
    return "logged";
  }
  const transport = nodemailer.createTransport({
    url: settings.SMTP_URL,
    connectionTimeout: DEADLINE_MS,
    greetingTimeout: DEADLINE_MS,
    socketTimeout: DEADLINE_MS,
  });
  try {
    await transport.sendMail({ from: settings.EMAIL_FROM, to, subject, text });
    return "sent";
  } catch (error) {
    log.warn({ err: error, alertId: alert.id }, "alert e-mail refused");
    return "failed";
  } finally {
    transport.close();
  }
}
