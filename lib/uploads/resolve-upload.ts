import { readdir, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { sniffMediaType, SNIFF_BYTES } from "@/lib/media/magic";
import { localPaths, parseObjectPath, PUT_URL_TTL_SECONDS, uploadsRoot } from "@/lib/uploads/objects";
import type { Outbound } from "@/lib/http/outbound";
import {
  deleteObject,
  presignObject,
  readObjectHead,
  s3Config,
  storageOutbound,
  type S3Config,
} from "@/lib/uploads/s3";
import { log } from "@/lib/observability/logger";

// For the transcription pipeline: an upload by object path, only for its owner, only when it is
// complete and within retention. Everything else is the same 404, so a caller cannot tell someone
// else's object from one that does not exist.

/** How long the pipeline's presigned GET URL is valid. */
export const GET_URL_TTL_SECONDS = 60 * 60;

interface ResolvedCommon {
  objectPath: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
}

/** A local file (embedded store) or a presigned GET URL (S3). */
export type ResolvedUpload = ResolvedCommon &
  (
    | { path: string; url?: undefined; outbound?: undefined }
    /** `url` is in the app's own bucket: fetch it with `outbound` (storageOutbound), not the guarded app instance. */
    | { url: string; outbound: Outbound; path?: undefined }
  );

const notFound = () =>
  errors.notFound(
    "No such upload: it does not exist, is not complete, or has expired. Sign and upload the file again.",
  );

/** `objectPath` may be the object path or the `upload:` source URL. */
export async function resolveUploadForUser(
  userId: string,
  objectPath: string,
  now: Date = new Date(),
): Promise<ResolvedUpload> {
  const key = parseObjectPath(objectPath.trim());
  if (!key) throw notFound();
  const db = await getDb();
  const row = await db.upload.findUnique({ where: { objectPath: key } });
  if (!row || row.userId !== userId || row.expiresAt.getTime() <= now.getTime()) throw notFound();
  const common = { objectPath: key, filename: row.filename, contentType: row.contentType };

  const storage = s3Config();
  if (!storage) {
    if (!row.completedAt || row.sizeBytes === null) throw notFound();
    const file = localPaths(key).final;
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) throw notFound();
    return { ...common, sizeBytes: size, path: file };
  }

  // S3: the client PUT straight to the bucket, so check the object here (size, first bytes) until
  // its PUT URL has expired; after that it can no longer change and the recorded check stands.
  const putUrlExpiry = row.createdAt.getTime() + PUT_URL_TTL_SECONDS * 1000;
  let sizeBytes = row.sizeBytes;
  if (!row.completedAt || row.sizeBytes === null || row.completedAt.getTime() < putUrlExpiry) {
    sizeBytes = await verifyS3Object(storage, key);
    await db.upload.update({ where: { id: row.id }, data: { completedAt: row.completedAt ?? now, sizeBytes } });
  }
  const url = await presignObject(storage, { method: "GET", key, expiresSeconds: GET_URL_TTL_SECONDS, now });
  return { ...common, sizeBytes: sizeBytes!, url, outbound: storageOutbound(storage) };
}

/** The object's size after checking it exists, fits UPLOAD_MAX_BYTES and is audio or video; refused objects are deleted. */
async function verifyS3Object(storage: S3Config, key: string): Promise<number> {
  const object = await readObjectHead(storage, key, SNIFF_BYTES);
  if (!object) throw notFound();
  const maxBytes = env().UPLOAD_MAX_BYTES;
  if (object.sizeBytes > maxBytes) {
    await deleteObject(storage, key);
    throw errors.payloadTooLarge(
      `The uploaded file is larger than this server accepts (${maxBytes} bytes); it has been deleted.`,
    );
  }
  if (!sniffMediaType(object.head)) {
    await deleteObject(storage, key);
    throw errors.unsupportedMediaType(
      "The uploaded file is not audio or video this service can read; it has been deleted.",
    );
  }
  return object.sizeBytes;
}

const CLEANUP_BATCH = 500;

/**
 * Removes the stored files (or S3 objects) of uploads whose rows are gone with their account (a deleted team).
 * Best effort: a file that cannot be removed now is logged. Returns how many were removed.
 */
export async function removeStoredUploads(objectPaths: readonly string[]): Promise<number> {
  const storage = s3Config();
  let removed = 0;
  for (const objectPath of objectPaths) {
    try {
      if (storage) {
        if (!(await deleteObject(storage, objectPath))) throw new Error("storage refused the delete");
      } else await removeLocal(objectPath);
      removed += 1;
    } catch (error) {
      log.error({ objectPath, err: error }, "could not delete a deleted account's upload");
    }
  }
  return removed;
}

/**
 * Removes uploads whose retention has passed: the file (or S3 object) first, then the row, so a
 * crash in between leaves a row the next run finishes. Objects that cannot be deleted now (S3
 * unreachable) keep their row for the next run. Returns how many uploads were removed.
 */
export async function deleteExpiredUploads(now: Date = new Date()): Promise<{ deleted: number; failed: number }> {
  const db = await getDb();
  const storage = s3Config();
  const failed: string[] = [];
  let deleted = 0;
  for (;;) {
    const rows = await db.upload.findMany({
      where: { expiresAt: { lte: now }, id: { notIn: failed } },
      select: { id: true, objectPath: true },
      orderBy: { expiresAt: "asc" },
      take: CLEANUP_BATCH,
    });
    if (rows.length === 0) break;
    const removed: string[] = [];
    for (const row of rows) {
      try {
        if (storage) {
          if (!(await deleteObject(storage, row.objectPath))) throw new Error("storage refused the delete");
        } else {
          await removeLocal(row.objectPath);
        }
        removed.push(row.id);
      } catch (error) {
        log.error({ objectPath: row.objectPath, err: error }, "could not delete an expired upload");
        failed.push(row.id);
      }
    }
    if (removed.length > 0) {
      const result = await db.upload.deleteMany({ where: { id: { in: removed }, expiresAt: { lte: now } } });
      deleted += result.count;
    }
  }
  return { deleted, failed: failed.length };
}

async function removeLocal(objectPath: string): Promise<void> {
  const parsed = parseObjectPath(objectPath);
  if (!parsed) return; // nothing this module could have written
  const { final, partial, dir } = localPaths(parsed);
  await rm(final, { force: true });
  await rm(partial, { force: true });
  // Tidy the per-upload folder and the user's folder when empty.
  const root = uploadsRoot();
  for (
    let folder = dir;
    folder.startsWith(root + path.sep) && folder !== path.join(root, "uploads");
    folder = path.dirname(folder)
  ) {
    const entries = await readdir(folder).catch(() => null);
    if (entries === null || entries.length > 0) break;
    await rmdir(folder).catch(() => undefined);
  }
}
