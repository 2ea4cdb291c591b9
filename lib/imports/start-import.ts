import { getDb } from "@/lib/db/client";
import { currentActor, currentTeamKey } from "@/lib/membership/actor";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { RequestValidationError } from "@/lib/http/validation";
import type { Outbound } from "@/lib/http/outbound";
import { asApiError } from "@/lib/captions/upstream-errors";
import { parsePlaylistUrl } from "@/lib/imports/playlist";
import { normalizeFeedUrl } from "@/lib/podcasts/resolve-podcast";
import { importPipeline, type ImportContext } from "@/lib/imports/import-pipeline";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import type { ImportRequest } from "@/lib/imports/schemas";

/**
 * POST /v1/import: records the batch and enqueues its job in one transaction, and answers at once. The
 * URL is only checked here (a YouTube playlist/channel, or a URL the outbound guard would fetch); what it
 * is shows when the job lists it.
 */
export async function startImport(
  userId: string,
  request: ImportRequest,
  deps: { outbound: Outbound },
): Promise<{ batch_id: string }> {
  const playlist = parsePlaylistUrl(request.url);
  let sourceUrl = playlist;
  if (!sourceUrl) {
    const text = normalizeFeedUrl(request.url);
    try {
      sourceUrl = deps.outbound.checkUrl(text).href;
    } catch (error) {
      const api = asApiError(error) as { detail?: string };
      throw new RequestValidationError([
        {
          type: "value_error",
          loc: ["body", "url"],
          msg: `Value error, ${api.detail ?? "this URL cannot be imported."}`,
          input: request.url,
          ctx: { error: {} },
        },
      ]);
    }
  }
  const webhookUrl = request.webhook_url ? await checkRequestWebhook(userId, request.webhook_url) : undefined;
  const db = await getDb();
  const batch = await db.$transaction(async (tx) => {
    const created = await tx.importBatch.create({ data: { userId, sourceUrl, lang: request.lang, status: "queued" } });
    const context: ImportContext = {
      batchId: created.id,
      userId,
      url: sourceUrl,
      lang: request.lang,
      ...(request.vocabulary?.length ? { vocabulary: request.vocabulary } : {}),
      ...(webhookUrl ? { webhookUrl } : {}),
      ...(currentActor() ? { actorId: currentActor()! } : {}),
      ...(currentTeamKey() ? { teamKeyId: currentTeamKey()! } : {}),
    };
    await enqueueJob(tx, { userId, pipeline: importPipeline, context });
    return created;
  });
  return { batch_id: batch.id };
}
