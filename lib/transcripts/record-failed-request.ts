import { getDb } from "@/lib/db/client";
import { currentActor, currentTeamKey } from "@/lib/membership/actor";
import { ApiError } from "@/lib/http/errors";
import { parseSourceUrl } from "@/lib/sources";
import { deleteFailedRequestsPast } from "@/lib/transcripts/history-queries";
import type { TranscriptRequest } from "@/lib/transcripts/schemas";

/** Failed link requests kept per user; older ones are dropped as new ones come in. */
export const FAILED_REQUESTS_KEPT = 20;

/** Failures that say something about the link (not about the caller's credentials or request rate). */
function isLinkFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status !== 401 && error.status !== 429;
}

/**
 * POST /v1/transcript failed for a link: lists it in the caller's history as an `error` entry with the
 * API's reason, without charging, then rethrows. An entry that is done or running is never touched; the
 * next successful request for the same link turns the entry into a normal one (record-transcription.ts).
 * Only links parsed without the network are recorded (not short links whose expansion failed, not uploads).
 */
export async function recordFailedRequest(userId: string, request: TranscriptRequest, error: unknown): Promise<never> {
  const link = request.url?.trim() || request.audio?.trim();
  const source = link && !request.upload && isLinkFailure(error) ? parseSourceUrl(link) : null;
  if (source && !source.needsResolve) {
    try {
      await storeFailure(
        userId,
        { platform: source.platform, videoId: source.videoId, lang: request.lang },
        error as ApiError,
      );
    } catch (storeError) {
      console.error("[transcripts] could not record a failed request:", storeError);
    }
  }
  throw error;
}

async function storeFailure(userId: string, key: { platform: string; videoId: string; lang: string }, error: ApiError) {
  const db = await getDb();
  const failure = {
    state: "error",
    errorCode: error.code,
    errorMessage: error.detail.slice(0, 1000),
    jobId: null,
    createdAt: new Date(),
  };
  await db.$transaction(async (tx) => {
    const created = await tx.transcription.createMany({
      data: [{ userId, ...key, origin: null, ...failure, actorId: currentActor(), teamKeyId: currentTeamKey() }],
      skipDuplicates: true,
    });
    if (created.count === 0) {
      await tx.transcription.updateMany({ where: { userId, ...key, state: "error" }, data: failure });
    }
    // Bounded: only the newest failed requests (entries that failed before any job ran) are kept.
    await deleteFailedRequestsPast(tx, userId, FAILED_REQUESTS_KEPT);
  });
}
