import { getDb } from "@/lib/db/client";
import type { Transcript } from "@/lib/generated/prisma/client";

/** What the caller knows an episode is called and who publishes it (its feed's item and show). */
export interface KnownTitle {
  title?: string | null;
  channel?: string | null;
}

/**
 * Names a stored transcript that has no title yet (a podcast's own file names none; an audio link's is its
 * file name at best) after what its feed calls it. Only where the stored one is empty: a transcript is shared,
 * and the first name it was given stays.
 */
export async function nameUntitled(transcript: Transcript, known: KnownTitle): Promise<Transcript> {
  const title = known.title?.trim() || null;
  const channel = known.channel?.trim() || null;
  const data: { title?: string; channel?: string } = {};
  if (title && !transcript.title?.trim()) data.title = title;
  if (channel && !transcript.channel?.trim()) data.channel = channel;
  if (!data.title && !data.channel) return transcript;
  const db = await getDb();
  // Conditional on the column still being empty, so two requests at once never overwrite each other's name.
  if (data.title)
    await db.transcript.updateMany({
      where: { id: transcript.id, OR: [{ title: null }, { title: "" }] },
      data: { title: data.title },
    });
  if (data.channel)
    await db.transcript.updateMany({
      where: { id: transcript.id, OR: [{ channel: null }, { channel: "" }] },
      data: { channel: data.channel },
    });
  return (await db.transcript.findUnique({ where: { id: transcript.id } })) ?? transcript;
}
