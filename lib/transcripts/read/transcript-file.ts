import { renderTranscript, type Format } from "@/lib/formats";
import type { Transcript } from "@/lib/generated/prisma/client";
import { attachmentDisposition } from "./download-name";
import { transcriptMeta, transcriptSegments } from "./serialize-transcript";

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
