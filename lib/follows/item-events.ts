import { getDb } from "@/lib/db/client";
import type { Follow, FollowItem } from "@/lib/generated/prisma/client";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { transcriptEvent } from "@/lib/webhooks/events";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";

type Outcome = { transcriptId: string; transcript: TranscriptResponse } | { error: { code: string; message: string } };

/**
 * transcript.completed / transcript.failed for a followed item that ended without a job (captions or a
 * publisher's transcript at once, or refused at the start). An item with a job is told of by its job, which
 * carries the follow's id.
 */
export async function emitItemEvent(follow: Follow, item: Pick<FollowItem, "url">, outcome: Outcome): Promise<void> {
  const db = await getDb();
  const base = { jobId: null, followId: follow.id, lang: follow.lang };
  const payload =
    "error" in outcome
      ? transcriptEvent("transcript.failed", {
          ...base,
          platform: follow.kind === "youtube" ? "youtube" : "podcast",
          videoId: item.url,
          sourceUrl: item.url,
          error: outcome.error,
        })
      : transcriptEvent("transcript.completed", {
          ...base,
          platform: outcome.transcript.platform,
          videoId: outcome.transcript.video_id,
          sourceUrl: outcome.transcript.source_url,
          transcriptId: outcome.transcriptId,
          durationSeconds: outcome.transcript.duration_seconds,
        });
  await db.$transaction((tx) =>
    emitWebhookEvent(tx, { userId: follow.userId, payload, requestUrl: follow.webhookUrl }),
  );
}
