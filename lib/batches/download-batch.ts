import { create } from "content-disposition";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { renderTranscript, type Format } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import { asSeenBy, transcriptChapters, transcriptMeta, transcriptSegments } from "@/lib/transcripts/read";
import { safeFileStem } from "@/lib/transcripts/read/download-name";
import { noteTitle, renderNote } from "@/lib/exports/note";
import { zipStream, type ZipEntry } from "@/lib/exports/zip";

/** Items read per query: ids only; each transcript is then read alone. */
const PAGE = 200;

/**
 * GET /v1/batches/{batch_id}/download: every done item's transcript in each chosen format, one zip streamed as it
 * is built (lib/exports/zip.ts): one transcript in memory at a time. Files are named `0001 Title.srt` after the
 * item's line, so they sort as the list did and two items never share a name; `md` is the note lib/exports writes
 * (front matter, chapters, timestamps that open the moment). The transcript as the account sees it (its corrections).
 */
export async function downloadBatch(accountId: string, batchId: string, formats: Format[]): Promise<Response> {
  const db = await getDb();
  const batch = await db.batch.findFirst({ where: { id: batchId, userId: accountId }, select: { id: true } });
  if (!batch) throw errors.notFound("No batch with that id.");
  const done = await db.batchItem.count({ where: { batchId, status: "done", transcriptId: { not: null } } });
  return new Response(zipStream(entries(accountId, batchId, formats)), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": create(`Verbatim batch ${batchId}.zip`),
      "x-batch-done": String(done),
      "cache-control": "no-store",
    },
  });
}

async function* entries(accountId: string, batchId: string, formats: Format[]): AsyncGenerator<ZipEntry> {
  const db = await getDb();
  const appUrl = env().APP_URL;
  let after = 0;
  for (;;) {
    const page = await db.batchItem.findMany({
      where: { batchId, status: "done", transcriptId: { not: null }, line: { gt: after } },
      orderBy: { line: "asc" },
      take: PAGE,
      select: { line: true, transcriptId: true },
    });
    for (const item of page) {
      const row = await db.transcript.findUnique({ where: { id: item.transcriptId! } });
      if (!row) continue; // removed since the item finished
      const view = await asSeenBy(accountId, row);
      const stem = `${String(item.line).padStart(4, "0")} ${safeFileStem(noteTitle(view)) || view.videoId}`;
      for (const format of formats) {
        if (format === "md") {
          const source = { ...view, segments: transcriptSegments(view), chapters: transcriptChapters(view) };
          const content = renderNote({ ...source, transcribedAt: null }, appUrl);
          yield { name: `${stem}.md`, content, modified: view.fetchedAt };
          continue;
        }
        const file = renderTranscript(format, transcriptSegments(view), transcriptMeta(view));
        yield { name: `${stem}.${file.extension}`, content: file.content, modified: view.fetchedAt };
      }
    }
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.line;
  }
}
