import { getDb } from "@/lib/db/client";
import { authorView } from "@/lib/edits/author-view";
import { renderTranscript, type Format } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import type { Transcript } from "@/lib/generated/prisma/client";
import { attachmentDisposition } from "@/lib/transcripts/download-name";
import { serializeTranscript, transcriptMeta, transcriptSegments } from "@/lib/transcripts/serializers";

/** A transcript the caller has in their history (anyone else's, or an unknown id → 404). */
export async function ownedTranscript(userId: string, transcriptId: string) {
  const db = await getDb();
  const entry = await db.historyEntry.findFirst({ where: { userId, transcriptId }, include: { transcript: true } });
  if (!entry?.transcript) throw errors.notFound("No transcript with this id in your history.");
  return entry.transcript;
}

/** The transcript as the caller sees it: their correction (lib/edits) when they saved one. */
export async function getTranscript(userId: string, transcriptId: string, format: Format) {
  return serializeTranscript(await authorView(userId, await ownedTranscript(userId, transcriptId)), format);
}

/** The rendered file with its own Content-Type and a filename, for downloads. */
export async function downloadTranscript(userId: string, transcriptId: string, format: Format): Promise<Response> {
  return transcriptFile(await authorView(userId, await ownedTranscript(userId, transcriptId)), format);
}

/**
 * A transcript as a file to download, named after its title (download-name.ts); `name` (the public
 * pages' slug-lang) replaces that name.
 */
export function transcriptFile(
  row: Transcript,
  format: Format,
  name?: string,
  headers: Record<string, string> = {},
): Response {
  const file = renderTranscript(format, transcriptSegments(row), transcriptMeta(row));
  const idStem = `${row.platform}-${row.videoId}-${row.lang}`.replace(/[^A-Za-z0-9._-]/g, "_");
  const disposition = name
    ? `attachment; filename="${`${name}.${file.extension}`.replace(/[^A-Za-z0-9._-]/g, "_")}"`
    : attachmentDisposition(row.title, row.lang, idStem, file.extension);
  return new Response(file.content, {
    headers: { ...headers, "content-type": file.contentType, "content-disposition": disposition },
  });
}
