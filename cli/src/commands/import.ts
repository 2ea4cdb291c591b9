import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { createProgress, stopAllProgress } from "../progress";

const FINISHED = new Set(["done", "partial", "error"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts an import and follows the batch with a progress bar until every item is done, failed or skipped. */
async function importFeed(ctx: Context, url: string, options: { wait: boolean }): Promise<number> {
  const { api } = ctx;
  const { batch_id } = await api.ok(api.client.POST("/v1/import", { body: { url } }));
  const readBatch = () => api.ok(api.client.GET("/v1/import/{batch_id}", { params: { path: { batch_id } } }));
  if (!options.wait) {
    const batch = await readBatch();
    if (ctx.out.json) ctx.out.writeJson(batch);
    else ctx.out.info(`Import ${batch_id} started; follow it at ${api.baseUrl}/dashboard/imports`);
    return EXIT.ok;
  }
  ctx.out.info(`Import ${batch_id} started; Ctrl-C stops following it (it goes on: ${api.baseUrl}/dashboard/imports).`);
  process.once("SIGINT", () => {
    stopAllProgress();
    ctx.out.info(`Stopped following import ${batch_id}; it goes on on the server: ${api.baseUrl}/dashboard/imports`);
    process.exit(EXIT.interrupted);
  });
  let progress: ReturnType<typeof createProgress> | null = null;
  let batch: Awaited<ReturnType<typeof readBatch>>;
  try {
    for (;;) {
      batch = await readBatch();
      if (batch.total > 0) {
        progress ??= createProgress(ctx.out, batch.title ?? "Importing", batch.total, "items");
        progress.update(
          batch.done + batch.failed + batch.skipped,
          `${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped`,
        );
      }
      if (FINISHED.has(batch.status)) break;
      await sleep(2000);
    }
  } finally {
    progress?.stop();
  }
  if (ctx.out.json) ctx.out.writeJson(batch);
  else
    ctx.out.info(
      `${batch.title ?? batch.source_url}: ${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped (${batch.status})${batch.note ? `. ${batch.note}` : ""}`,
    );
  if (batch.status === "error") throw new CliError(batch.note ?? "The import failed.", EXIT.other, "import_failed");
  return batch.status === "partial" ? EXIT.other : EXIT.ok;
}

export function registerImport(program: Command): void {
  withJson(program.command("import"))
    .description("Transcribe a whole podcast feed, YouTube playlist or channel, following it with a progress bar")
    .argument("<url>", "feed, Apple Podcasts show, or YouTube playlist/channel link")
    .option("--no-wait", "start it and return")
    .addHelpText(
      "after",
      examples(
        "verbatim import https://feeds.example.com/show.xml",
        "verbatim import https://www.youtube.com/playlist?list=PL… --no-wait",
      ),
    )
    .action(action(importFeed));
}
