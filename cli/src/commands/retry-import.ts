import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { EXIT } from "../errors";

/** Queues failed items of a batch again (POST /v1/import/{batch_id}/items/retry): the named ones, or all. */
async function retryImport(ctx: Context, batchId: string, guids: string[]): Promise<number> {
  const { api } = ctx;
  const path = { batch_id: batchId };
  let wanted = guids;
  if (wanted.length === 0) {
    for (let cursor: string | undefined; ;) {
      const page = await api.ok(
        api.client.GET("/v1/import/{batch_id}/items", { params: { path, query: { limit: 200, cursor } } }),
      );
      wanted = [...wanted, ...page.items.filter((item) => item.status === "failed").map((item) => item.guid)];
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
  }
  const items = [];
  for (const guid of wanted)
    items.push(
      await api.ok(api.client.POST("/v1/import/{batch_id}/items/retry", { params: { path }, body: { guid } })),
    );
  if (ctx.out.json) {
    ctx.out.writeJson({ batch_id: batchId, items });
    return EXIT.ok;
  }
  if (items.length === 0) ctx.out.info(`Import ${batchId} has no failed items.`);
  for (const item of items) ctx.out.info(`${item.title}: ${item.status}`);
  if (items.length > 0) ctx.out.info(`Queued again: follow import ${batchId} at ${api.baseUrl}/dashboard/imports`);
  return EXIT.ok;
}

export function registerRetryImport(program: Command): void {
  withJson(program.command("retry-import"))
    .description("Queue the failed items of an import again (all of them, or the guids given)")
    .argument("<batch_id>", "the import's batch id")
    .argument("[guids...]", "only these items (their guid); default: every failed item")
    .addHelpText("after", examples("verbatim retry-import cm1abc…", "verbatim retry-import cm1abc… episode-42"))
    .action(action(retryImport));
}
