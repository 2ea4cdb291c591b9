import { env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import { RequestValidationError } from "@/lib/http/validation";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * A webhook URL as saved: https, and a host the outbound guard would call (no literal internal address,
 * no user:password). Plain http only for hosts in OUTBOUND_ALLOW_PRIVATE_HOSTS (loopback fakes in development
 * and tests). The guard checks the resolved addresses again at every delivery attempt.
 * Throws a 422 in the contract's validation shape at `loc`.
 */
export function checkWebhookUrl(raw: string, loc: (string | number)[]): string {
  const refuse = (msg: string) =>
    new RequestValidationError([
      { type: "value_error", loc, msg: `Value error, ${msg}`, input: raw, ctx: { error: {} } },
    ]);
  let url: URL;
  try {
    url = appOutbound().checkUrl(raw, { maxLength: MAX_WEBHOOK_URL_LENGTH });
  } catch (error) {
    throw refuse(error instanceof Error ? error.message : "this URL cannot be called.");
  }
  const exempt = env().OUTBOUND_ALLOW_PRIVATE_HOSTS ?? [];
  if (url.protocol !== "https:" && !exempt.includes(url.hostname.toLowerCase()))
    throw refuse("a webhook URL must use https.");
  return url.href;
}
