import { lockUntilCommit } from "@/lib/db/advisory-lock";
import type { Prisma } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";

// Per-user upload quotas: how many uploads a user keeps at once (signed and not yet expired,
// UPLOAD_MAX_PENDING) and how many bytes those already uploaded take (UPLOAD_MAX_PENDING_BYTES).
// Checks that decide a write (signing, claiming a received file) run under the user's advisory lock,
// in the transaction of that write, so concurrent requests cannot all slip under the limit.

type Tx = Prisma.TransactionClient;

export interface PendingUploads {
  count: number;
  bytes: number;
  /** When the oldest of them expires (and frees its place), null when there are none. */
  oldestExpiresAt: Date | null;
}

export async function lockUserUploads(tx: Tx, userId: string): Promise<void> {
  await lockUntilCommit(tx, `uploads:${userId}`);
}

export async function pendingUploads(db: Tx, userId: string, now: Date): Promise<PendingUploads> {
  // In SQL: a sum of 32-bit sizes goes past what Prisma's Int aggregate holds.
  const [row] = await db.$queryRaw<{ count: number; bytes: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS "count", COALESCE(sum("sizeBytes"), 0)::float8 AS "bytes", min("expiresAt") AS "oldest"
    FROM "Upload" WHERE "userId" = ${userId} AND "expiresAt" > ${now}`;
  return { count: row?.count ?? 0, bytes: row?.bytes ?? 0, oldestExpiresAt: row?.oldest ?? null };
}

/** 429 upload_quota_exceeded when the user may not sign another upload now. */
export function assertCanSign(pending: PendingUploads, now: Date): void {
  const { UPLOAD_MAX_PENDING, UPLOAD_MAX_PENDING_BYTES } = env();
  const full =
    pending.count >= UPLOAD_MAX_PENDING
      ? `You have ${pending.count} uploads kept at once, the most this server allows (${UPLOAD_MAX_PENDING}).`
      : pending.bytes >= UPLOAD_MAX_PENDING_BYTES
        ? `Your uploads take ${pending.bytes} bytes, the most this server keeps for one user (${UPLOAD_MAX_PENDING_BYTES}).`
        : null;
  if (!full) return;
  const retryAfter = Math.max(
    1,
    Math.ceil(((pending.oldestExpiresAt?.getTime() ?? now.getTime()) - now.getTime()) / 1000),
  );
  throw new ApiError("upload_quota_exceeded", `${full} The oldest one expires in ${retryAfter} s.`, {
    "Retry-After": String(retryAfter),
  });
}

/** Bytes the user may still upload (never negative). */
export function bytesLeft(pending: PendingUploads): number {
  return Math.max(0, env().UPLOAD_MAX_PENDING_BYTES - pending.bytes);
}

/** 413 upload_space_exceeded: the file does not fit in what is left of the user's upload space. */
export function uploadSpaceExceeded(left: number): ApiError {
  return new ApiError(
    "upload_space_exceeded",
    `This file does not fit in your upload space: ${left} bytes are left of ${env().UPLOAD_MAX_PENDING_BYTES}. Uploads free their space when they expire.`,
  );
}
