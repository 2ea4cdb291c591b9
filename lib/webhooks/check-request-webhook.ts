import { getDb } from "@/lib/db/client";
import { RequestValidationError } from "@/lib/http/validation";
import { checkWebhookUrl } from "@/lib/webhooks/check-url";

/**
 * A request's `webhook_url`, checked before anything is started: a URL the guard would call, and an
 * account that has a request signing secret to sign with (422 at body.webhook_url otherwise).
 */
export async function checkRequestWebhook(userId: string, raw: string): Promise<string> {
  const loc = ["body", "webhook_url"];
  const url = checkWebhookUrl(raw, loc);
  const db = await getDb();
  if (!(await db.webhookRequestSecret.findUnique({ where: { userId }, select: { userId: true } }))) {
    throw new RequestValidationError([
      {
        type: "value_error",
        loc,
        msg: "Value error, this account has no request signing secret yet: create it with POST /v1/me/webhooks/request-secret (or in the dashboard) first.",
        input: raw,
        ctx: { error: {} },
      },
    ]);
  }
  return url;
}
