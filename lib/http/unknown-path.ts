import { errorResponse, errors } from "@/lib/http/errors";

/** The answer for a /v1 path no operation is described at (app/v1/[...path]/route.ts). */
export function unknownApiPath(): Response {
  return errorResponse(errors.notFound("No API operation at this path. The operations are listed at /openapi.json."));
}
