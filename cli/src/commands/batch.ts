import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { action, examples, withJson } from "../command";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { createProgress, stopAllProgress } from "../progress";

const FINISHED = new Set(["done", "partial", "error"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listText(file: string): Promise<string> {
  if (file !== "-") {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
    }
  }
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

/** `verbatim batch <file>`: a TXT or CSV list of links as one batch, followed with a progress bar to its end. */
async function runBatch(ctx: Context, file: string, options: { wait: boolean; lang: string }): Promise<number> {
  const { api } = ctx;
  const text = await listText(file);
  const created = await api.ok(api.client.POST("/v1/batches", { body: { text, lang: options.lang } }));
  const batch_id = created.id;
  for (const item of created.items.filter((i) => i.status === "skipped"))
    if (!ctx.out.json) ctx.out.info(`line ${item.line} skipped: ${item.note ?? ""}`);
  const readBatch = () => api.ok(api.client.GET("/v1/batches/{batch_id}", { params: { path: { batch_id } } }));
  const download = `${api.baseUrl}/v1/batches/${batch_id}/download?formats=srt,md`;
  if (!options.wait) {
    if (ctx.out.json) ctx.out.writeJson(created);
    else ctx.out.info(`Batch ${batch_id} started: ${created.total} items, ${created.skipped} skipped.`);
    return EXIT.ok;
  }
  ctx.out.info(`Batch ${batch_id} started; Ctrl-C stops following it (it goes on on the server).`);
  process.once("SIGINT", () => {
    stopAllProgress();
    ctx.out.info(`Stopped following batch ${batch_id}; it goes on on the server.`);
    process.exit(EXIT.interrupted);
  });
  const progress = createProgress(ctx.out, "Batch", created.total, "items");
  let batch = created;
  try {
    while (!FINISHED.has(batch.status)) {
      await sleep(2000);
      batch = await readBatch();
      progress.update(
        batch.done + batch.failed + batch.skipped,
        `${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped`,
      );
    }
  } finally {
    progress.stop();
  }
  if (ctx.out.json) ctx.out.writeJson(batch);
  else {
    for (const item of batch.items.filter((i) => i.status === "failed"))
      ctx.out.info(`line ${item.line} failed: ${item.note ?? ""}`);
    ctx.out.info(
      `${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped (${batch.status}). Every result: ${download}`,
    );
  }
  if (batch.status === "error") throw new CliError(batch.note ?? "The batch failed.", EXIT.other, "batch_failed");
  return batch.status === "partial" ? EXIT.other : EXIT.ok;
}

export function registerBatch(program: Command): void {
  withJson(program.command("batch"))
    .description("Transcribe a list of up to a thousand links (a TXT or CSV file, or - for stdin) as one batch")
    .argument("<file>", "one link a line; in a CSV, the first cell of each row that is a link")
    .option("--lang <lang>", "the language every item is transcribed in", "en")
    .option("--no-wait", "start it and return")
    .addHelpText("after", examples("verbatim batch links.txt", "verbatim batch videos.csv --no-wait --json"))
    .action(action(runBatch));
}
