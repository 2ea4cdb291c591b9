import type { ImportBatchOut } from "@/lib/imports/schemas";
import type { ResolveResponse } from "@/lib/podcasts/schemas";
import type { Context } from "../context";
import { CliError, EXIT } from "../errors";
import { date, table } from "../format";
import { createProgress, stopAllProgress } from "../progress";

export async function resolvePodcast(ctx: Context, url: string, options: { limit?: string; offset?: string } = {}): Promise<number> {
  const page = { limit: Number(options.limit ?? 100), offset: Number(options.offset ?? 0) };
  const resolved = await ctx.api.post<ResolveResponse>("/v1/podcast/resolve", { url, ...page });
  if (ctx.out.json) {
    ctx.out.writeJson(resolved);
    return EXIT.ok;
  }
  if (resolved.show) ctx.out.info(`${ctx.out.color.bold(resolved.show.title)} (${resolved.kind})`);
  const episodes = resolved.episodes ?? [];
  if (episodes.length > 0) {
    ctx.out.write(table(["PUBLISHED", "DURATION", "TITLE", "AUDIO"], episodes.map((e) => [date(e.published).slice(0, 10), e.duration ?? "-", e.title, e.audio_url]), ctx.out.color.bold));
  } else if (resolved.audio_url) ctx.out.write(`${resolved.audio_url}\n`);
  if (resolved.total_episodes !== undefined && resolved.next_offset != null) {
    ctx.out.info(`${episodes.length} of ${resolved.total_episodes} episodes; the next ones: --offset ${resolved.next_offset}`);
  }
  ctx.out.info("Transcribe an episode with: verbatim get <audio url>; the whole show with: verbatim import <url>");
  return EXIT.ok;
}

const FINISHED = new Set(["done", "partial", "error"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts an import and follows the batch with a progress bar until every item is done, failed or skipped. */
export async function importFeed(ctx: Context, url: string, options: { wait: boolean }): Promise<number> {
  const { batch_id } = await ctx.api.post<{ batch_id: string }>("/v1/import", { url });
  const path = `/v1/import/${encodeURIComponent(batch_id)}`;
  if (!options.wait) {
    const batch = await ctx.api.get<ImportBatchOut>(path);
    if (ctx.out.json) ctx.out.writeJson(batch);
    else ctx.out.info(`Import ${batch_id} started; follow it at ${ctx.api.baseUrl}/dashboard/imports`);
    return EXIT.ok;
  }
  ctx.out.info(`Import ${batch_id} started; Ctrl-C stops following it (it goes on: ${ctx.api.baseUrl}/dashboard/imports).`);
  process.once("SIGINT", () => {
    stopAllProgress();
    ctx.out.info(`Stopped following import ${batch_id}; it goes on on the server: ${ctx.api.baseUrl}/dashboard/imports`);
    process.exit(EXIT.interrupted);
  });
  let progress: ReturnType<typeof createProgress> | null = null;
  let batch: ImportBatchOut;
  try {
    for (;;) {
      batch = await ctx.api.get<ImportBatchOut>(path);
      if (batch.total > 0) {
        progress ??= createProgress(ctx.out, batch.title ?? "Importing", batch.total, "items");
        progress.update(batch.done + batch.failed + batch.skipped, `${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped`);
      }
      if (FINISHED.has(batch.status)) break;
      await sleep(2000);
    }
  } finally {
    progress?.stop();
  }
  if (ctx.out.json) ctx.out.writeJson(batch);
  else ctx.out.info(`${batch.title ?? batch.source_url}: ${batch.done} done, ${batch.failed} failed, ${batch.skipped} skipped (${batch.status})${batch.note ? `. ${batch.note}` : ""}`);
  if (batch.status === "error") throw new CliError(batch.note ?? "The import failed.", EXIT.other, "import_failed");
  return batch.status === "partial" ? EXIT.other : EXIT.ok;
}
