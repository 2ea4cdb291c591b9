import { getDb } from "@/lib/db/client";
import type { Transcript } from "@/lib/generated/prisma/client";
import { allowanceRefusal, chargeSeconds } from "@/lib/usage/charge";
import { transcriptChargeSeconds } from "@/lib/usage/charged-seconds";
import { errors } from "@/lib/http/errors";
import { currentActor, currentTeamKey } from "@/lib/membership/actor";

/**
 * Adds the transcript to the user's history and charges its duration, once per user, source and
 * language: asking again is free. Not enough allowance → 402 and nothing is written. `statedSeconds`: the
 * media's length as its source states it (a feed's episode duration), charged where the transcript is shorter.
 */
export async function recordTranscription(userId: string, transcript: Transcript, statedSeconds = 0): Promise<void> {
  const db = await getDb();
  const seconds = transcriptChargeSeconds(transcript.durationSeconds, statedSeconds);
  const entry = { userId, platform: transcript.platform, videoId: transcript.videoId, lang: transcript.lang };
  const done = {
    origin: transcript.origin,
    transcriptId: transcript.id,
    state: "done",
    durationSeconds: seconds,
    totalSeconds: seconds,
  };
  await db.$transaction(
    async (tx) => {
      // ON CONFLICT DO NOTHING: a concurrent request for the same entry waits here, then finds it.
      const created = await tx.transcription.createMany({
        data: [{ ...entry, ...done, actorId: currentActor(), teamKeyId: currentTeamKey() }],
        skipDuplicates: true,
      });
      if (created.count === 0) {
        // A failed entry (a failed link request, never charged, or a failed job, refunded) becomes this
        // transcript and is charged now; any other existing entry is free.
        const revived = await tx.transcription.updateMany({
          where: { ...entry, state: "error" },
          data: {
            ...done,
            jobId: null,
            errorCode: null,
            errorMessage: null,
            createdAt: new Date(),
            actorId: currentActor(),
            teamKeyId: currentTeamKey(),
          },
        });
        if (revived.count === 0) {
          await tx.transcription.updateMany({
            where: { ...entry, transcriptId: null },
            data: { transcriptId: transcript.id },
          });
          return;
        }
      }
      if (!(await chargeSeconds(tx, userId, seconds))) {
        throw errors.allowanceExhausted(await allowanceRefusal(tx, userId, "This transcript is", seconds));
      }
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
}
