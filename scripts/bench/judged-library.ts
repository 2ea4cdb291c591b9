// A judged corpus's tracks (the judged set of test/fixtures/captions/judged-search.ts unless told) stored as one
// reader's library, each a done history entry, for the benches that judge search on it. Imported after the bench
// has set DATABASE_URL.
import type { Db } from "../../lib/db/client";
import { JUDGED_TRACKS, judgedTrackSegments, type JudgedTrack } from "../../test/fixtures/captions/judged-search";

/**
 * Stores every track in `userId`'s library (made unless `copy` is given: a further copy of the tracks, as other
 * videos, in the same library): each track's transcript id by its key, and the segments.
 */
export async function storeJudgedLibrary(
  db: Db,
  userId: string,
  tracks: readonly JudgedTrack[] = JUDGED_TRACKS,
  { copy = 0, email = "judged@bench.test" }: { copy?: number; email?: string } = {},
): Promise<{ ids: Map<string, string>; segments: number }> {
  const { storeTranscript } = await import("../../lib/transcripts/store-transcript");
  const { insertDoneEntries } = await import("../../lib/transcripts/history-queries");
  if (copy === 0) await db.user.create({ data: { id: userId, email } });
  const ids = new Map<string, string>();
  let segments = 0;
  for (const [i, track] of tracks.entries()) {
    const segs = judgedTrackSegments(track);
    segments += segs.length;
    const videoId = `judged${copy || ""}${String(i).padStart(5, "0")}`;
    const durationSeconds = Math.ceil(segs.at(-1)!.end);
    const transcript = await storeTranscript(
      { platform: "youtube", videoId, lang: "en", origin: "captions" },
      {
        title: track.title,
        captionKind: track.kind,
        sourceUrl: `https://www.youtube.com/watch?v=${videoId}`,
        durationSeconds,
        segments: segs as unknown as object[],
      },
    );
    ids.set(track.key, transcript.id);
    await insertDoneEntries(
      (text, values) => db.$executeRawUnsafe(text, ...values),
      [
        {
          id: `judged-entry-${copy}-${i}`,
          userId,
          platform: "youtube",
          videoId,
          lang: "en",
          origin: "captions",
          transcriptId: transcript.id,
          durationSeconds,
        },
      ],
    );
  }
  return { ids, segments };
}
