import type { z } from "zod";
import type { languagesResponseSchema, transcriptionListSchema } from "@/lib/transcripts/schemas";
import type { Context } from "../context";
import { EXIT, exitCodeFor } from "../errors";
import { date, duration, table } from "../format";
import { assertJobId, readJob, waitForJob } from "../jobs";
import { writeTranscript } from "./get";

type Languages = z.infer<typeof languagesResponseSchema>;
type TranscriptionList = z.infer<typeof transcriptionListSchema>;

/** A job by id: waits for it (as `get` does) unless --no-wait, then prints its transcript or its state. */
export async function job(ctx: Context, jobId: string, options: { format: string; output?: string; wait: boolean }): Promise<number> {
  assertJobId(jobId);
  const found = options.wait ? await waitForJob(ctx, jobId, options.format, true) : await readJob(ctx, jobId, options.format);
  if (ctx.out.json) {
    ctx.out.writeJson(found);
    if (found.transcript && options.output && options.output !== "-") await writeTranscript(ctx, found.transcript, options.output, false);
    return found.status === "error" ? exitCodeFor(null, found.error?.code ?? null) : EXIT.ok;
  }
  if (found.transcript) {
    await writeTranscript(ctx, found.transcript, options.output, false);
    return EXIT.ok;
  }
  const state = found.status === "error" ? `error: ${found.error?.message ?? "failed"}` : `${found.status}${found.stage ? ` (${found.stage}, ${Math.round(found.progress * 100)}%)` : ""}`;
  ctx.out.write(`Job ${found.job_id}: ${state}\n`);
  return found.status === "error" ? exitCodeFor(null, found.error?.code ?? null) : EXIT.ok;
}

export async function languages(ctx: Context, url: string): Promise<number> {
  const found = await ctx.api.get<Languages>("/v1/languages", { query: { url }, auth: false });
  if (ctx.out.json) {
    ctx.out.writeJson(found);
    return EXIT.ok;
  }
  ctx.out.info(`${found.title ?? found.video_id} (${found.platform}, ${duration(found.duration_seconds)})`);
  if (found.languages.length === 0) ctx.out.info("No captions: `verbatim get` transcribes it with speech recognition.");
  else ctx.out.write(table(["CODE", "KIND", "NAME"], found.languages.map((l) => [l.code, l.kind, l.name]), ctx.out.color.bold));
  return EXIT.ok;
}

export interface HistoryOptions {
  q?: string;
  platform?: string;
  state?: string;
  limit: string;
  offset: string;
  sort?: string;
  order?: string;
}

export async function history(ctx: Context, options: HistoryOptions): Promise<number> {
  const list = await ctx.api.get<TranscriptionList>("/v1/me/transcriptions", {
    query: { q: options.q, platform: options.platform, state: options.state, limit: options.limit, offset: options.offset, sort: options.sort, order: options.order },
  });
  if (ctx.out.json) {
    ctx.out.writeJson(list);
    return EXIT.ok;
  }
  if (list.transcriptions.length === 0) {
    ctx.out.info(list.total === 0 ? "No transcriptions yet. Try: verbatim get <url>" : "No more transcriptions.");
    return EXIT.ok;
  }
  const rows = list.transcriptions.map((t) => [date(t.created_at), t.source ?? "-", t.lang ?? "-", duration(t.total_seconds), t.status ?? (t.complete ? "done" : "-"), t.video_id]);
  ctx.out.write(table(["CREATED", "PLATFORM", "LANG", "LENGTH", "STATUS", "VIDEO"], rows, ctx.out.color.bold));
  const last = list.offset + list.transcriptions.length;
  if (list.total > last) ctx.out.info(`Showing ${list.offset + 1}–${last} of ${list.total}; more with --offset ${last}.`);
  return EXIT.ok;
}
