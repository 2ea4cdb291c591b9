import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { localUploadUrl } from "@/lib/uploads/local-url";
import {
  ALLOWED_CONTENT_TYPES,
  allowedContentType,
  displayFilename,
  newObjectPath,
  PUT_URL_TTL_SECONDS,
  SOURCE_PREFIX,
} from "@/lib/uploads/objects";
import { presignPut, s3Config } from "@/lib/uploads/s3";
import { assertCanSign, lockUserUploads, pendingUploads } from "@/lib/uploads/quota";
import type { SignedUpload, SignUploadRequest } from "@/lib/uploads/schemas";

/**
 * POST /v1/uploads/sign: records an Upload row (kept UPLOAD_RETENTION_HOURS) and answers a PUT URL
 * valid for 15 minutes: presigned S3 when S3_BUCKET is set, else this app's own /uploads/… URL.
 * Refused with 429 when the user already keeps UPLOAD_MAX_PENDING uploads or UPLOAD_MAX_PENDING_BYTES.
 * `source_url` is `upload:<object_path>`; POST /v1/transcript takes the object path as `upload`.
 */
export async function signUpload(
  userId: string,
  request: SignUploadRequest,
  now: Date = new Date(),
): Promise<SignedUpload> {
  const contentType = allowedContentType(request.content_type);
  if (!contentType) {
    throw errors.unsupportedMediaType(
      `'${request.content_type.slice(0, 100)}' is not an accepted upload type. Send one of: ${ALLOWED_CONTENT_TYPES.join(", ")}.`,
    );
  }
  const storage = s3Config(); // throws 503 when half-configured, before anything is recorded
  const settings = env();
  const objectPath = newObjectPath(userId, request.filename);
  const expiresAt = new Date(now.getTime() + settings.UPLOAD_RETENTION_HOURS * 3600_000);
  // The URL never outlives the row (relevant only with a retention under 15 minutes).
  const urlExpires = Math.floor(Math.min(now.getTime() + PUT_URL_TTL_SECONDS * 1000, expiresAt.getTime()) / 1000);

  const db = await getDb();
  await db.$transaction(async (tx) => {
    await lockUserUploads(tx, userId);
    assertCanSign(await pendingUploads(tx, userId, now), now);
    await tx.upload.create({
      data: { userId, objectPath, filename: displayFilename(request.filename), contentType, expiresAt, createdAt: now },
    });
  });

  const uploadUrl = storage
    ? await presignPut(
        storage,
        objectPath,
        contentType,
        Math.max(1, urlExpires - Math.floor(now.getTime() / 1000)),
        now,
      )
    : localUploadUrl(objectPath, contentType, urlExpires);
  return { object_path: objectPath, upload_url: uploadUrl, source_url: `${SOURCE_PREFIX}${objectPath}` };
}
