import { z } from "zod";
import { ALLOWED_CONTENT_TYPES } from "@/lib/uploads/objects";

export const signUploadRequestSchema = z
  .object({
    filename: z
      .string()
      .min(1)
      .max(255)
      .describe("The file's name; kept for display, and a safe form ends the object path"),
    content_type: z.string().describe(`The file's media type, one of: ${ALLOWED_CONTENT_TYPES.join(", ")}`),
  })
  .meta({ id: "SignUploadRequest" });

export type SignUploadRequest = z.output<typeof signUploadRequestSchema>;

export const signedUploadSchema = z
  .object({
    object_path: z.string().describe("uploads/<user>/<random>/<filename>: pass it as `upload` to POST /v1/transcript"),
    upload_url: z
      .string()
      .describe(
        "PUT the file's bytes here within 15 minutes, with `Content-Type` exactly the signed content_type. Valid for one file.",
      ),
    source_url: z.string().describe("upload:<object_path>, how the upload is named as a transcript's source"),
  })
  .meta({ id: "SignedUpload" });

export type SignedUpload = z.infer<typeof signedUploadSchema>;
