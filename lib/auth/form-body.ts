import { NextRequest } from "next/server";
import { readBodyBytes } from "@/lib/http/body";
import { ApiError, errorResponse, errors } from "@/lib/http/errors";

// Auth.js reads a POST's whole body with no bound (request.text() into URLSearchParams and an object, or
// request.json()): 16 MiB of form parameters held the event loop for seconds, and /api/auth is not behind
// any other body limit. Its forms (sign-in with the development login or an email address, sign-out) are a
// few hundred bytes, so its routes get the body read through lib/http/body.ts first, at most this many bytes.
export const AUTH_FORM_MAX_BYTES = 64 * 1024;

type RouteHandler = (request: NextRequest) => Promise<Response>;

/** Auth.js's POST handler behind the bound: past it a 413 payload_too_large, before Auth.js reads anything. */
export function withBoundedForm(handler: RouteHandler): RouteHandler {
  return async (request) => {
    let body: Buffer;
    try {
      body = await readBodyBytes(request, {
        maxBytes: AUTH_FORM_MAX_BYTES,
        tooLarge: () => errors.payloadTooLarge(`A sign-in or sign-out form is at most ${AUTH_FORM_MAX_BYTES} bytes.`),
      });
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
    return handler(
      new NextRequest(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) }),
    );
  };
}
