import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { asSeenBy, transcriptChapters, transcriptSegments } from "@/lib/transcripts/read";
import { noteFileName, noteStem } from "./file-name";
import { noteTitle, renderNote } from "./note";
import type { ZipEntry } from "./zip";

/** History entries read per query: ids and dates only; each transcript is then read alone. */
const PAGE = 200;

/**
 * The notes of the entries `where` selects in `accountId`'s library, newest first as History lists them, each
 * transcript as the account sees it (its newest correction). Read one transcript at a time, so that memory holds
 * one transcript's segments whatever the library's size; each transcript once, under a name no other note of the
 * export has on any file system (names compared without case).
 */
export async function* readNotes(
  accountId: string,
  where: Prisma.TranscriptionWhereInput,
  appUrl: string,
): AsyncGenerator<ZipEntry & { id: string }> {
  const db = await getDb();
  const seen = new Set<string>();
  const names = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const page: { id: string; transcriptId: string | null; createdAt: Date }[] = await db.transcription.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      select: { id: true, transcriptId: true, createdAt: true },
    });
    for (const entry of page) {
      const id = entry.transcriptId;
      if (id === null || seen.has(id)) continue;
      seen.add(id);
      const row = await db.transcript.findUnique({ where: { id } });
      if (!row) continue; // removed since the page was read
      const view = await asSeenBy(accountId, row);
      const source = {
        ...view,
        segments: transcriptSegments(view),
        chapters: transcriptChapters(view),
        transcribedAt: entry.createdAt,
      };
      let name = noteFileName(noteTitle(source), id);
      if (names.has(name.toLowerCase())) name = `${noteStem(noteTitle(source)) || "note"} (${id}).md`;
      names.add(name.toLowerCase());
      yield { id, name, content: renderNote(source, appUrl), modified: view.fetchedAt };
    }
    if (page.length < PAGE) return;
    cursor = page[page.length - 1]!.id;
  }
}
