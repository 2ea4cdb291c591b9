import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { podcastDeps } from "@/lib/podcasts/deps";
import { itemSource } from "@/lib/imports/list-source";
import { serializeItem } from "@/lib/imports/serializers";
import type { ImportItemsResponse } from "@/lib/imports/schemas";

// GET /v1/import/{batch_id}/items: a batch's items in listing order, by keyset pagination on (position, id)
// (the index ImportItem_batchId_position_id_idx). The cursor is opaque to callers: base64url of
// "<position>.<id>" of the previous page's last item. A done or skipped item links to its transcript through
// the history entry the transcript path keyed it under: (user, the item's platform and id, the batch's lang).

function encodeCursor(row: { position: number; id: string }): string {
  return Buffer.from(`${row.position}.${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { position: number; id: string } {
  const [position, id] = Buffer.from(cursor, "base64url").toString("utf8").split(".", 2);
  if (!id || !/^\d{1,9}$/.test(position ?? "") || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new RequestValidationError([
      {
        type: "value_error",
        loc: ["query", "cursor"],
        msg: "Value error, not a cursor of this list",
        input: cursor,
        ctx: { error: {} },
      },
    ]);
  }
  return { position: Number(position), id };
}

export async function listImportItems(
  userId: string,
  batchId: string,
  query: { cursor?: string; limit: number },
): Promise<ImportItemsResponse> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const db = await getDb();
  const batch = await db.importBatch.findFirst({ where: { id: batchId, userId }, select: { id: true, lang: true } });
  if (!batch) throw errors.notFound("No import batch with that id.");
  const rows = await db.importItem.findMany({
    where: {
      batchId,
      ...(after
        ? { OR: [{ position: { gt: after.position } }, { position: after.position, id: { gt: after.id } }] }
        : {}),
    },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);

  // The history entries of the page's finished items, in one query.
  const allow = podcastDeps().allowPrivateFor;
  const keyOf = new Map<string, string>();
  for (const row of page) {
    if (row.status !== "done" && row.status !== "skipped") continue;
    const source = itemSource({ url: row.audioUrl, kind: "audio" }, allow);
    if (source) keyOf.set(row.id, `${source.platform}:${source.videoId}`);
  }
  const transcripts = new Map<string, string>();
  if (keyOf.size > 0) {
    const keys = [...new Set(keyOf.values())].map((key) => {
      const at = key.indexOf(":");
      return { platform: key.slice(0, at), videoId: key.slice(at + 1) };
    });
    const entries = await db.transcription.findMany({
      where: { userId, lang: batch.lang, transcriptId: { not: null }, OR: keys },
      select: { platform: true, videoId: true, transcriptId: true },
    });
    for (const entry of entries) transcripts.set(`${entry.platform}:${entry.videoId}`, entry.transcriptId!);
  }

  const last = page.at(-1);
  return {
    items: page.map((row) => serializeItem(row, transcripts.get(keyOf.get(row.id) ?? "") ?? null)),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}
