import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { currentActor, currentTeamKey } from "@/lib/membership/actor";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import { parseLinkList } from "@/lib/batches/parse-list";
import { allowPrivateFor } from "@/lib/batches/private-hosts";
import { enqueueBatchLink } from "@/lib/batches/batch-pipeline";
import { finishBatch } from "@/lib/batches/batch-state";
import { getBatch } from "@/lib/batches/get-batch";
import type { BatchOut, CreateBatchRequest } from "@/lib/batches/schemas";

const INSERT_CHUNK = 500;

/**
 * POST /v1/batches: the list read (bounded: at most BATCH_MAX_BYTES of text and BATCH_MAX_LINKS links, linear
 * work), the batch, its items and its first job written in one transaction, and answered at once; nothing is
 * fetched here. A duplicate or a line with no link Verbatim takes is an item `skipped` with its note, not a refusal.
 */
export async function createBatch(accountId: string, request: CreateBatchRequest): Promise<BatchOut> {
  const settings = env();
  const fromArray = request.links !== undefined;
  // An array's entries are its lines: a line break inside one stays inside it.
  const text = fromArray ? request.links!.map((link) => link.replace(/[\r\n]+/g, " ")).join("\n") : request.text!;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > settings.BATCH_MAX_BYTES)
    throw errors.payloadTooLarge(
      `The list is ${bytes} bytes; a batch is made of at most ${settings.BATCH_MAX_BYTES}. Send it in parts.`,
    );
  const max = settings.BATCH_MAX_LINKS;
  const parsed = parseLinkList(text, max, { allowPrivateFor: allowPrivateFor(), header: !fromArray });
  if (parsed.links > max)
    throw errors.payloadTooLarge(
      `The list holds more than ${max} links; a batch takes at most ${max}. Send it in parts.`,
    );
  if (parsed.items.length === 0)
    throw new RequestValidationError([
      {
        type: "value_error",
        loc: ["body", fromArray ? "links" : "text"],
        msg: "Value error, the list holds no link.",
        input: fromArray ? request.links : request.text!.slice(0, 200),
        ctx: { error: {} },
      },
    ]);
  const webhookUrl = request.webhook_url ? await checkRequestWebhook(accountId, request.webhook_url) : undefined;

  const db = await getDb();
  const batchId = await db.$transaction(
    async (tx) => {
      const batch = await tx.batch.create({
        data: {
          userId: accountId,
          lang: request.lang,
          total: parsed.items.length,
          vocabulary: request.vocabulary ?? [],
          webhookUrl: webhookUrl ?? null,
          actorId: currentActor(),
          teamKeyId: currentTeamKey(),
        },
      });
      for (let i = 0; i < parsed.items.length; i += INSERT_CHUNK)
        await tx.batchItem.createMany({
          data: parsed.items.slice(i, i + INSERT_CHUNK).map((item) => ({ batchId: batch.id, ...item })),
        });
      if (parsed.items.some((item) => item.status === "queued")) await enqueueBatchLink(tx, batch.id, accountId);
      else await finishBatch(tx, batch.id);
      return batch.id;
    },
    { timeout: 30_000, maxWait: 20_000 },
  );
  return getBatch(accountId, batchId);
}
