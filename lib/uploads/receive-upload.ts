import { mkdir, open, rename, rmdir, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { consumeBody } from "@/lib/http/body";
import { ApiError, errorResponse, errors, internalErrorResponse } from "@/lib/http/errors";
import { verifyLocalSignature } from "@/lib/uploads/local-url";
import { sniffMediaType, SNIFF_BYTES } from "@/lib/media/magic";
import { isObjectPath, localPaths, SOURCE_PREFIX } from "@/lib/uploads/objects";
import { s3Config } from "@/lib/uploads/s3";
import { bytesLeft, lockUserUploads, pendingUploads, uploadSpaceExceeded } from "@/lib/uploads/quota";

// PUT <APP_URL>/uploads/<object_path>?expires&ct&sig: the embedded store's upload target.
//
// Checks, in order: the signature (constant time), expiry, the Content-Type header against the
// signed one, the declared size, the Upload row (exists, not complete). Then the body streams to
// <file>.partial, opened exclusively so a second concurrent PUT gets 409 instead of interleaving,
// counted as it goes (413 past UPLOAD_MAX_BYTES, or past what is left of the user's
// UPLOAD_MAX_PENDING_BYTES: upload_space_exceeded). Its first 4 KiB must be audio or video by their
// magic bytes (lib/media/magic.ts; else 415).
// Only then is the row claimed (completedAt, sizeBytes; conditional, so exactly one PUT ever wins)
// and the file renamed into place: a partial or refused upload is never at the final path, and a
// refused one leaves no folder behind.

export interface ReceivedUpload {
  object_path: string;
  source_url: string;
  content_type: string;
  size_bytes: number;
  /** The container the first bytes show (lib/media/magic.ts); it may differ from the declared type. */
  detected_type: string;
}

const invalidUrl = () =>
  new ApiError(
    "upload_url_invalid",
    "This upload URL is not valid (altered or incomplete). Sign a new one with POST /v1/uploads/sign.",
  );

export async function receiveUpload(
  request: Request,
  objectPath: string,
  now: Date = new Date(),
): Promise<ReceivedUpload> {
  if (s3Config())
    throw errors.notFound(
      "Uploads go to object storage on this server: PUT to the upload_url that POST /v1/uploads/sign answers.",
    );

  const query = new URL(request.url).searchParams;
  const expires = query.get("expires") ?? "";
  const contentType = query.get("ct") ?? "";
  const sig = query.get("sig") ?? "";
  if (!isObjectPath(objectPath) || !/^\d{1,12}$/.test(expires) || !contentType) throw invalidUrl();
  if (!verifyLocalSignature({ method: "PUT", objectPath, expires: Number(expires), contentType }, sig))
    throw invalidUrl();
  if (Number(expires) * 1000 <= now.getTime()) {
    throw new ApiError("upload_url_expired", "This upload URL has expired. Sign a new one with POST /v1/uploads/sign.");
  }

  const sent = (request.headers.get("content-type") ?? "").trim().toLowerCase();
  if (sent !== contentType) {
    throw new ApiError(
      "content_type_mismatch",
      `This upload URL was signed for Content-Type '${contentType}', and the request sent '${sent.slice(0, 100) || "none"}'. Send exactly the signed type.`,
    );
  }

  const fileLimit = env().UPLOAD_MAX_BYTES;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > fileLimit) throw tooLarge(fileLimit);

  const db = await getDb();
  const row = await db.upload.findUnique({ where: { objectPath } });
  if (!row || row.expiresAt.getTime() <= now.getTime())
    throw errors.notFound("This upload no longer exists. Sign a new one with POST /v1/uploads/sign.");
  if (row.completedAt) throw alreadyUploaded();
  // What is left of the user's upload space now; checked again when the file is claimed (concurrent PUTs).
  const left = bytesLeft(await pendingUploads(db, row.userId, now));
  if (declared !== null && Number(declared) > left) throw uploadSpaceExceeded(left);
  const limit =
    left < fileLimit
      ? { bytes: left, error: () => uploadSpaceExceeded(left) }
      : { bytes: fileLimit, error: () => tooLarge(fileLimit) };

  const paths = localPaths(objectPath);
  // A concurrent refused PUT may remove the user's folder between the two levels: try once more.
  await mkdir(paths.dir, { recursive: true }).catch(() => mkdir(paths.dir, { recursive: true }));
  let published = false;
  try {
    if (await exists(paths.final)) throw alreadyUploaded();
    let handle: FileHandle;
    try {
      handle = await open(paths.partial, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        throw errors.conflict("upload_in_progress", "Another upload to this URL is in progress.");
      }
      throw error;
    }

    try {
      let received: { size: number; head: Uint8Array };
      try {
        received = await streamToFile(request, handle, limit);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (declared !== null && Number(declared) !== received.size) {
        throw new ApiError(
          "incomplete_upload",
          `The body ended after ${received.size} of ${declared} bytes. Upload the file again.`,
        );
      }

      const detected = sniffMediaType(received.head);
      if (!detected) {
        throw errors.unsupportedMediaType(
          "The file is not a recognised audio or video file (such as WAV, MP3, AAC, Ogg, FLAC, MP4/M4A/MOV or WebM/Matroska).",
        );
      }

      // Claim the row: only one PUT can move completedAt from null, so only one file is ever published. Under
      // the user's upload lock, so that concurrent PUTs of one user cannot together go past their space.
      await db.$transaction(async (tx) => {
        await lockUserUploads(tx, row.userId);
        const space = bytesLeft(await pendingUploads(tx, row.userId, now));
        if (received.size > space) throw uploadSpaceExceeded(space);
        const claimed = await tx.upload.updateMany({
          where: { objectPath, completedAt: null, expiresAt: { gt: now } },
          data: { completedAt: now, sizeBytes: received.size },
        });
        if (claimed.count !== 1) throw alreadyUploaded();
      });
      try {
        await rename(paths.partial, paths.final);
        published = true;
      } catch (error) {
        await db.upload.updateMany({
          where: { objectPath, completedAt: now },
          data: { completedAt: null, sizeBytes: null },
        });
        throw error;
      }
      return {
        object_path: objectPath,
        source_url: `${SOURCE_PREFIX}${objectPath}`,
        content_type: contentType,
        size_bytes: received.size,
        detected_type: detected,
      };
    } finally {
      if (!published) await unlink(paths.partial).catch(() => undefined);
    }
  } finally {
    // A refused PUT leaves no folder behind: the object's own, then the user's if that was its only one.
    if (!published) await removeEmptyFolders(paths.dir);
  }
}

/** Removes `dir` and then its parent (the user's folder) when they are empty; anything else stays. */
async function removeEmptyFolders(dir: string): Promise<void> {
  try {
    await rmdir(dir);
    await rmdir(path.dirname(dir));
  } catch {
    // not empty (another upload), or already gone
  }
}

/** Copies the body to the file, counting bytes; past the limit it stops reading and throws its 413. */
async function streamToFile(
  request: Request,
  handle: FileHandle,
  limit: { bytes: number; error: () => ApiError },
): Promise<{ size: number; head: Uint8Array }> {
  const head = new Uint8Array(SNIFF_BYTES);
  let headLength = 0;
  const size = await consumeBody(
    request,
    {
      maxBytes: limit.bytes,
      tooLarge: limit.error,
      interrupted: () => new ApiError("incomplete_upload", "The upload was interrupted. Upload the file again."),
    },
    async (bytes) => {
      if (headLength < SNIFF_BYTES) {
        const take = bytes.subarray(0, SNIFF_BYTES - headLength);
        head.set(take, headLength);
        headLength += take.byteLength;
      }
      let offset = 0;
      while (offset < bytes.byteLength) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
        offset += bytesWritten;
      }
    },
  );
  return { size, head: head.subarray(0, headLength) };
}

function tooLarge(maxBytes: number): ApiError {
  return errors.payloadTooLarge(`The file is larger than this server accepts (${maxBytes} bytes).`);
}

function alreadyUploaded(): ApiError {
  return errors.conflict(
    "upload_exists",
    "A file has already been uploaded to this URL. Sign a new upload to send another file.",
  );
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** The route's answer: 200 with the upload, or the error in the API's {detail, code} shape. */
export async function receiveUploadResponse(request: Request, params: Promise<{ path?: string[] }>): Promise<Response> {
  try {
    const { path = [] } = await params;
    return NextResponse.json(await receiveUpload(request, path.join("/")));
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    // The disk is full (or the quota reached): the partial file is already gone (see receiveUpload).
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === "ENOSPC" || errno === "EDQUOT") return errorResponse(errors.insufficientStorage());
    return internalErrorResponse(error, "PUT /uploads/{path}");
  }
}
