import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import Stripe from "stripe";
import type { MailAnswer, StripeAnswer } from "@/lib/health/setup-checks";

// The setup check's real requests to the services that are configured: Stripe (one cheap read with the official
// SDK) and the SMTP server (nodemailer's verify(): connect, greet, log in, quit), each within a deadline. What
// came back is judged in setup-checks.ts.

export const SERVICE_PROBE_TIMEOUT_MS = 10_000;

/** `GET /v1/prices?limit=1`: needs a working key and a route to Stripe, changes nothing, costs nothing. */
export async function probeStripe(
  secretKey: string,
  apiBase: string | null,
  timeoutMs = SERVICE_PROBE_TIMEOUT_MS,
): Promise<StripeAnswer> {
  // Built here rather than with lib/billing/stripe.ts's client, which is server-only (`npm run doctor` is not).
  const base = apiBase ? new URL(apiBase) : null;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  const client = new Stripe(secretKey, {
    ...(base
      ? { host: base.hostname, port: base.port ? Number(base.port) : protocol === "http" ? 80 : 443, protocol }
      : {}),
    timeout: timeoutMs,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: "Verbatim setup check" },
  });
  try {
    await client.prices.list({ limit: 1 });
    return { ok: true };
  } catch (error) {
    const kind =
      error instanceof Stripe.errors.StripeAuthenticationError
        ? "bad_key"
        : error instanceof Stripe.errors.StripePermissionError
          ? "no_permission"
          : error instanceof Stripe.errors.StripeConnectionError
            ? "unreachable"
            : "other";
    return { ok: false, kind, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** nodemailer's verify() on SMTP_URL (the magic links' transport), bounded by `timeoutMs` in all. */
export async function probeMail(smtpUrl: string, timeoutMs = SERVICE_PROBE_TIMEOUT_MS): Promise<MailAnswer> {
  const options: SMTPTransport.Options = {
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
  const transport = nodemailer.createTransport(options);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.verify(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })),
          timeoutMs,
        );
      }),
    ]);
    return { ok: true };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { ok: false, code: code ?? "ERROR", detail: message ?? String(error) };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
