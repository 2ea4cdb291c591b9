import type { Context } from "../context";
import { EXIT } from "../errors";
import { date } from "../format";

interface Endpoint {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
}
interface Delivery {
  id: string;
  webhook_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

/** `verbatim webhooks`: the account's endpoints, one a line (with --json: GET /v1/me/webhooks as is). */
export async function webhooksList(ctx: Context): Promise<number> {
  const answer = await ctx.api.get<{ endpoints: Endpoint[] }>("/v1/me/webhooks");
  if (ctx.out.json) ctx.out.writeJson(answer);
  else if (answer.endpoints.length === 0) ctx.out.info("No webhook endpoints. Add one in the dashboard (verbatim open webhooks).");
  else {
    for (const e of answer.endpoints) {
      const state = e.enabled ? (e.failing_since ? `failing since ${date(e.failing_since)}` : "enabled") : `disabled: ${e.disabled_reason ?? ""}`;
      ctx.out.write(`${e.id}  ${e.url}  ${e.event_types.join(",")}  ${state}\n`);
    }
  }
  return EXIT.ok;
}

/** `verbatim webhooks test <id>`: queues a webhook.test event for the endpoint. */
export async function webhooksTest(ctx: Context, id: string): Promise<number> {
  const delivery = await ctx.api.post<Delivery>(`/v1/me/webhooks/${encodeURIComponent(id)}/test`);
  if (ctx.out.json) ctx.out.writeJson(delivery);
  else ctx.out.write(`Test event queued (webhook-id ${delivery.webhook_id}); see it with: verbatim webhooks deliveries ${id}\n`);
  return EXIT.ok;
}

/** `verbatim webhooks deliveries <id>`: the endpoint's recent deliveries, newest first. */
export async function webhooksDeliveries(ctx: Context, id: string): Promise<number> {
  const answer = await ctx.api.get<{ deliveries: Delivery[] }>(`/v1/me/webhooks/${encodeURIComponent(id)}/deliveries`);
  if (ctx.out.json) ctx.out.writeJson(answer);
  else if (answer.deliveries.length === 0) ctx.out.info("No deliveries yet.");
  else {
    for (const d of answer.deliveries) {
      const answered = d.last_status_code !== null ? ` ${d.last_status_code}` : d.last_error ? ` (${d.last_error})` : "";
      ctx.out.write(`${date(d.created_at)}  ${d.event_type}  ${d.status}${answered}  ${d.attempts} attempt(s)  ${d.webhook_id}\n`);
    }
  }
  return EXIT.ok;
}
