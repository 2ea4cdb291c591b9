import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";
import { date } from "../format";

/** `verbatim webhooks`: the account's endpoints, one a line (with --json: GET /v1/me/webhooks as is). */
async function webhooksList(ctx: Context): Promise<number> {
  const answer = await ctx.api.ok(ctx.api.client.GET("/v1/me/webhooks"));
  if (ctx.out.json) ctx.out.writeJson(answer);
  else if (answer.endpoints.length === 0)
    ctx.out.info("No webhook endpoints. Add one in the dashboard (verbatim open webhooks).");
  else {
    for (const e of answer.endpoints) {
      const state = e.enabled
        ? e.failing_since
          ? `failing since ${date(e.failing_since)}`
          : "enabled"
        : `disabled: ${e.disabled_reason ?? ""}`;
      ctx.out.write(`${e.id}  ${e.url}  ${e.event_types.join(",")}  ${state}\n`);
    }
  }
  return EXIT.ok;
}

/** `verbatim webhooks test <id>`: queues a webhook.test event for the endpoint. */
async function webhooksTest(ctx: Context, id: string): Promise<number> {
  const delivery = await ctx.api.ok(ctx.api.client.POST("/v1/me/webhooks/{id}/test", { params: { path: { id } } }));
  if (ctx.out.json) ctx.out.writeJson(delivery);
  else
    ctx.out.write(
      `Test event queued (webhook-id ${delivery.webhook_id}); see it with: verbatim webhooks deliveries ${id}\n`,
    );
  return EXIT.ok;
}

/** `verbatim webhooks deliveries <id>`: the endpoint's recent deliveries, newest first. */
async function webhooksDeliveries(ctx: Context, id: string): Promise<number> {
  const answer = await ctx.api.ok(ctx.api.client.GET("/v1/me/webhooks/{id}/deliveries", { params: { path: { id } } }));
  if (ctx.out.json) ctx.out.writeJson(answer);
  else if (answer.deliveries.length === 0) ctx.out.info("No deliveries yet.");
  else {
    for (const d of answer.deliveries) {
      const answered =
        d.last_status_code !== null ? ` ${d.last_status_code}` : d.last_error ? ` (${d.last_error})` : "";
      ctx.out.write(
        `${date(d.created_at)}  ${d.event_type}  ${d.status}${answered}  ${d.attempts} attempt(s)  ${d.webhook_id}\n`,
      );
    }
  }
  return EXIT.ok;
}

export function registerWebhooks(program: Command): void {
  const webhooks = withJson(program.command("webhooks"))
    .description("Your webhook endpoints (add them in the dashboard: verbatim open webhooks)")
    .addHelpText(
      "after",
      examples("verbatim webhooks", "verbatim webhooks test <id>", "verbatim webhooks deliveries <id> --json"),
    )
    .action(action(webhooksList));
  withJson(webhooks.command("test"))
    .description("Send a webhook.test event to an endpoint")
    .argument("<id>", "the endpoint's id (from `verbatim webhooks`)")
    .action(action(webhooksTest));
  withJson(webhooks.command("deliveries"))
    .description("An endpoint's recent deliveries: event, status, answer, attempts, webhook-id")
    .argument("<id>", "the endpoint's id")
    .action(action(webhooksDeliveries));
}
