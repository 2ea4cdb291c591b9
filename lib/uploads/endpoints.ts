import { defineEndpoint } from "@/lib/http/endpoint";
import { signedUploadSchema, signUploadRequestSchema } from "@/lib/uploads/schemas";

export const signUploadEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/uploads/sign",
  tag: "Uploads",
  summary: "A URL to upload an audio or video file to",
  description:
    "Answers a one-file upload URL valid for 15 minutes. PUT the raw bytes to `upload_url` with `Content-Type` set exactly to `content_type` " +
    "(the local store also refuses bodies over its size limit or over what is left of the user's upload space with 413, bodies that are not audio or video with 415, and a second upload to the same path with 409). " +
    'Then transcribe it with `POST /v1/transcript {"upload": object_path}`. Uploads are kept 24 hours by default.',
  auth: "use",
  rateLimit: "uploadSign",
  body: signUploadRequestSchema,
  response: signedUploadSchema,
  errors: {
    415: "The content type is not an accepted audio or video type",
    429: "upload_quota_exceeded: the user keeps UPLOAD_MAX_PENDING uploads (or UPLOAD_MAX_PENDING_BYTES) already; Retry-After says when the oldest expires",
    503: "Upload storage is misconfigured",
  },
});
