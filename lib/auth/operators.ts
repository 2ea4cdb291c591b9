import type { NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { env, type Env } from "@/lib/env";
import { sessionUserId } from "@/lib/auth/session";

// Who runs this server, decided here and nowhere else. Operators see the setup's details (hosts, ports, the
// errors the setup checks met: the dashboard's "What works on this server", /health's detail); everyone else
// sees only what they can do. Nothing is stored: the rule is derived from the settings on every ask, so
// changing ADMIN_EMAILS takes effect at the next start without a migration or a backfill.

export type OperatorRule =
  /** ADMIN_EMAILS: the users signed in with one of these emails (lower-cased). */
  | { kind: "emails"; emails: readonly string[] }
  /**
   * The embedded default with the development login and no ADMIN_EMAILS: a person trying Verbatim on their own
   * machine, who is its first user; whoever signs in after them is someone they let in.
   */
  | { kind: "first_user" }
  /** Anywhere else without ADMIN_EMAILS: nobody (the operator has `npm run doctor` on the server). */
  | { kind: "nobody" };

export function operatorRule(settings: Env = env()): OperatorRule {
  if (settings.ADMIN_EMAILS && settings.ADMIN_EMAILS.length > 0)
    return { kind: "emails", emails: settings.ADMIN_EMAILS };
  return settings.embedded && settings.devLogin ? { kind: "first_user" } : { kind: "nobody" };
}

/** Whether the user runs this server (operatorRule). */
export async function isOperator(userId: string, settings: Env = env()): Promise<boolean> {
  const rule = operatorRule(settings);
  if (rule.kind === "nobody") return false;
  const db = await getDb();
  if (rule.kind === "emails") {
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    return Boolean(user?.email && rule.emails.includes(user.email.toLowerCase()));
  }
  const first = await db.user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return first?.id === userId;
}

/**
 * Whether a request comes from an operator's browser: their dashboard session cookie, and no bearer credential.
 * An API key, an OAuth app's or a device login's token is a program acting for someone and never gets the
 * setup's details, whoever it belongs to.
 */
export async function isOperatorRequest(request: NextRequest, settings: Env = env()): Promise<boolean> {
  if (request.headers.has("authorization") || operatorRule(settings).kind === "nobody") return false;
  const userId = await sessionUserId(request);
  return userId !== null && isOperator(userId, settings);
}
