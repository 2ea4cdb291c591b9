import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Format } from "@/lib/formats";
import type { Transcript } from "@/lib/generated/prisma/client";
import { ApiError, errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { expirePublicPages } from "@/lib/cache/public-pages";
import {
  asSeenBy,
  ORIGINAL,
  readTranscript,
  serializedTranscriptJson,
  serializeTranscript,
  transcriptMeta,
  transcriptSegments,
  type TranscriptView,
} from "@/lib/transcripts/read";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import { limitUser, refundUser } from "@/lib/http/rate-limits";
import { densityLimits, densityProblem, measure, type DensityLimits } from "@/lib/edits/density";
import { segmentsSize, type SaveOutcome } from "@/lib/edits/prepare-save";
import { MAX_INDEX_TOKENS } from "@/lib/edits/validate";
import { mostIndexTokens } from "@/lib/edits/index-tokens";
import { prepareSaveOffThread } from "@/lib/edits/save-off-thread";
import type { EditRequest } from "@/lib/edits/schemas";
import { diffSegments } from "@/lib/edits/segments-diff";
import { sqlState } from "@/lib/db/sql-state";
import { indexInBackground, indexRevision, oneStepAtATime } from "@/lib/edits/revision-index";
import { log } from "@/lib/observability/logger";

// Saving, listing and restoring a user's corrections of a transcript in their history (a transcript not in
// it is a 404, whoever else has it). Editing is free: nothing here touches usage. Reading a version is the
// read model's (lib/transcripts/read).

/** The transcript as the source gave it, from the user's history (404 when it is not in it). */
function originalOf(userId: string, transcriptId: string): Promise<TranscriptView> {
  return readTranscript(userId, transcriptId, { revision: ORIGINAL });
}

/** The latest a corrected segment may end: the media's duration, or the source's own last end when later. */
function maxEnd(row: Transcript): number {
  const original = transcriptSegments(row);
  const lastEnd = original.reduce((max, s) => Math.max(max, s.end), 0);
  return Math.max(row.durationSeconds, lastEnd);
}

/** The most one correction of `row` may hold (density.ts): what its media can, or what its source does. */
function limitsOf(row: Transcript, end: number): DensityLimits {
  return densityLimits(end, measure(transcriptSegments(row)));
}

/** The author's live public pages of a transcript: expired at once when what they show changes. */
async function expireAuthorPages(userId: string, transcriptId: string): Promise<void> {
  const db = await getDb();
  const pages = await db.publication.findMany({
    where: { userId, transcriptId, publishedAt: { not: null } },
    select: { slug: true },
  });
  if (pages.length > 0) expirePublicPages(pages.map((p) => p.slug));
}

/** A saved correction: the transcript as the author now sees it (serializeTranscript's JSON text), and its length. */
export interface SavedEdit {
  json: string;
  segmentCount: number;
}

/** PATCH /v1/transcripts/{id}'s answer: saveEdit's text as it is (the shape of `transcriptSchema`). */
export async function saveEditResponse(
  userId: string,
  transcriptId: string,
  body: EditRequest,
  format: Format,
): Promise<Response> {
  const saved = await saveEdit(userId, transcriptId, body, format);
  return new Response(saved.json, { headers: { "content-type": "application/json" } });
}

/** How much longer than the statement's deadline Prisma's transaction timer waits. */
const TRANSACTION_GRACE_MS = 2000;

/**
 * The most index tokens a save's body can make (index-tokens.ts), no more than a correction may hold; a
 * subtitle file's text counted whole (its timings too), a rename (the whole transcript again) that much.
 */
function mostTokensOf(body: EditRequest): number {
  if (body.content !== undefined) return Math.min(MAX_INDEX_TOKENS, mostIndexTokens(body.content));
  if (!body.segments) return MAX_INDEX_TOKENS;
  let most = 0;
  for (const s of body.segments) {
    most += mostIndexTokens(s.text);
    if (most >= MAX_INDEX_TOKENS) return MAX_INDEX_TOKENS;
  }
  return most;
}

/** The transcript and the save's prepared body (validated, retimed, its JSON), or the save's refusal. */
async function prepare(userId: string, transcriptId: string, body: EditRequest, format: Format) {
  const row = await originalOf(userId, transcriptId);
  const end = maxEnd(row);
  const limits = limitsOf(row, end);
  // More words than the media can hold: refused here, before the author's current version is read and
  // before any thread starts. A subtitle file's words are counted once it is parsed, in the thread.
  const dense = body.segments ? densityProblem(body.segments, limits, ["body", "segments"]) : null;
  if (dense) throw new RequestValidationError([dense]);
  // The author's current version may be a correction of megabytes: read in turn with the steps of indexing, so
  // that many users saving at once keep one such statement before another user's read.
  const current = transcriptSegments(await oneStepAtATime(() => asSeenBy(userId, row)));
  const settings = env();
  // Reading, validating and retiming the body: in a worker thread with a deadline (save-off-thread.ts).
  const prepared = await prepareSaveOffThread(
    {
      kind: "edit",
      body,
      current,
      maxEnd: end,
      limits,
      ...(format === "json" ? {} : { render: { format, meta: transcriptMeta(row) } }),
    },
    { threads: settings.EDIT_SAVE_THREADS, timeoutMs: settings.EDIT_SAVE_SECONDS * 1000 },
  );
  if (!prepared.ok) throw new RequestValidationError(prepared.problems);
  return { row, prepared };
}

/** Saves a new revision of the author's transcript, in the answer's `format`. */
export async function saveEdit(
  userId: string,
  transcriptId: string,
  body: EditRequest,
  format: Format = "json",
): Promise<SavedEdit> {
  // Besides the endpoint's per-minute row, a short one: a burst of saves waits its turn.
  await limitUser("editSaveBurst", userId);
  // What the save will index, at its most, counted before any work: a save past a minute's tokens is refused at
  // once, however many of the author's saves are being prepared; the rest is given back once it is known.
  const reserved = mostTokensOf(body);
  await limitUser("editSaveCost", userId, undefined, reserved).catch(async (error: unknown) => {
    // A refused count is counted all the same: given back, so that a smaller save may pass.
    await refundUser("editSaveCost", userId, reserved);
    throw error;
  });
  const started = performance.now();
  let prepared: Extract<SaveOutcome, { ok: true }>;
  let row: TranscriptView;
  try {
    ({ row, prepared } = await prepare(userId, transcriptId, body, format));
  } catch (error) {
    await refundUser("editSaveCost", userId, reserved);
    throw error;
  }
  if (prepared.indexTokens < reserved) await refundUser("editSaveCost", userId, reserved - prepared.indexTokens);
  else if (prepared.indexTokens > reserved)
    await limitUser("editSaveCost", userId, undefined, prepared.indexTokens - reserved);
  const settings = env();
  const deadlineMs = settings.EDIT_SAVE_SECONDS * 1000;
  const { segmentsJson, sizeBytes, segmentCount, content } = prepared;
  const { EDIT_REVISIONS_KEPT: kept, EDIT_STORAGE_BYTES: limit } = settings;
  const db = await getDb();
  // What is left of the save's deadline once it is prepared, at least a fifth of it: the whole save answers
  // within about the deadline and that fifth, however long its preparation took.
  const storeMs = Math.max(1, Math.round(Math.max(deadlineMs / 5, deadlineMs - (performance.now() - started))));
  const revisionId = randomUUID();
  try {
    // In turn with the steps of indexing (revision-index.ts): a large row's insert is one long statement.
    await oneStepAtATime(() =>
      db.$transaction(
        async (tx) => {
          // The deadline stops the statement itself, not only Prisma's timer, which leaves the statement running
          // and holding the database after it answers. The embedded database (PGlite) has no timers for this:
          // what keeps this transaction short there is that it indexes nothing (revision-index.ts does, after it).
          await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(storeMs)}, true)`;
          // One save at a time per user, so that two concurrent saves cannot both pass the storage bound.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('transcript-revision:' || ${userId}))`;
          // The segments go in as the JSON text the save's thread wrote (prepare-save.ts), and nothing comes back.
          await tx.$executeRaw`
          INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes")
          VALUES (${revisionId}, ${userId}, ${transcriptId}, ${segmentsJson}::jsonb, ${sizeBytes})`;
          const older = await tx.transcriptRevision.findMany({
            where: { userId, transcriptId },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            skip: kept,
            select: { id: true },
          });
          if (older.length > 0)
            await tx.transcriptRevision.deleteMany({ where: { id: { in: older.map((r) => r.id) } } });
          const used = await tx.transcriptRevision.aggregate({ where: { userId }, _sum: { sizeBytes: true } });
          if ((used._sum.sizeBytes ?? 0) > limit)
            throw errors.payloadTooLarge(
              `Saving this correction would take your saved corrections past ${limit} bytes. Restore the original of transcripts you no longer need corrected (DELETE /v1/transcripts/{id}/edits).`,
            );
        },
        // Prisma's timer a little later, so that the database's own cancel (57014) is what ends a slow insert.
        { timeout: storeMs + TRANSACTION_GRACE_MS },
      ),
    );
  } catch (error) {
    // Past the deadline (a loaded database): nothing was stored, and the same save may work in a moment.
    if ((error as { code?: unknown }).code === "P2028" || sqlState(error) === "57014")
      throw new ApiError(
        "database_unavailable",
        "The database took too long to store this correction, so nothing was stored. Try again in a few seconds.",
        { "Retry-After": "5" },
      );
    throw error;
  }
  // Search serves the author's previous version until this one is indexed, in steps that let other requests
  // through (revision-index.ts). The answer waits for it within the save's deadline; what is left then goes on
  // in the background, as does removing the replaced version's passages.
  // Stored whatever happens next: a failure here leaves the rest to the background (and to the next start).
  await indexRevision(revisionId, { until: started + deadlineMs }).catch((error: unknown) =>
    log.warn({ err: error, revisionId }, "a saved correction's indexing was left to the background"),
  );
  indexInBackground();
  await expireAuthorPages(userId, transcriptId);
  return { json: serializedTranscriptJson({ ...row, edited: true }, format, segmentsJson, content), segmentCount };
}

/** GET /v1/transcripts/{id}/revisions: the saved revisions, newest first, then the original. */
export async function listRevisions(userId: string, transcriptId: string) {
  const row = await originalOf(userId, transcriptId);
  const db = await getDb();
  // Each revision's segments are counted where they are stored, not read whole (up to 4 MiB each) to count them.
  const saved = await db.$queryRaw<{ id: string; createdAt: Date; sizeBytes: number; segmentCount: number }[]>`
    SELECT "id", "createdAt", "sizeBytes",
           CASE WHEN jsonb_typeof("segments") = 'array' THEN jsonb_array_length("segments") ELSE 0 END AS "segmentCount"
    FROM "TranscriptRevision"
    WHERE "userId" = ${userId} AND "transcriptId" = ${transcriptId}
    ORDER BY "createdAt" DESC, "id" DESC`;
  const used = await db.transcriptRevision.aggregate({ where: { userId }, _sum: { sizeBytes: true } });
  const original = transcriptSegments(row);
  return {
    revisions: [
      ...saved.map((r, i) => ({
        id: r.id,
        created_at: r.createdAt.toISOString(),
        size_bytes: r.sizeBytes,
        segment_count: r.segmentCount,
        current: i === 0,
      })),
      {
        id: ORIGINAL,
        created_at: null,
        size_bytes: segmentsSize(original),
        segment_count: original.length,
        current: saved.length === 0,
      },
    ],
    kept: env().EDIT_REVISIONS_KEPT,
    storage_used_bytes: used._sum.sizeBytes ?? 0,
    storage_limit_bytes: env().EDIT_STORAGE_BYTES,
  };
}

/** DELETE /v1/transcripts/{id}/edits: back to the original everywhere (every saved revision removed). */
export async function restoreOriginal(
  userId: string,
  transcriptId: string,
  format: Format,
): Promise<TranscriptResponse> {
  const row = await originalOf(userId, transcriptId);
  const db = await getDb();
  await db.transcriptRevision.deleteMany({ where: { userId, transcriptId } });
  await expireAuthorPages(userId, transcriptId);
  return serializeTranscript(row, format);
}

/** GET /v1/transcripts/{id}/revisions/{revision_id}/diff: a revision's words against the original's. */
export async function revisionDiff(userId: string, transcriptId: string, revisionId: string) {
  const edited = await readTranscript(userId, transcriptId, { revision: revisionId });
  const row = await originalOf(userId, transcriptId);
  return {
    revision_id: edited.revisionId ?? ORIGINAL,
    ...diffSegments(transcriptSegments(row), transcriptSegments(edited)),
  };
}
