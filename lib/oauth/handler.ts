import { NextResponse, type NextRequest } from "next/server";
import type { core, ZodType } from "zod";
import type { Endpoint } from "@/lib/http/endpoint";
import { ApiError, clientFault, internalErrorResponse, logClientFault } from "@/lib/http/errors";
import { limitRequest, withRateLimitHeaders, type RateLimitHeaders } from "@/lib/http/rate-limits";
import { readBodyBytes } from "@/lib/http/body";
import { NO_STORE, OAuthError, oauthErrorResponse } from "@/lib/oauth/errors";
import { clientKeyed } from "@/lib/http/client-keys";

// withApi's sibling for the OAuth and device-flow endpoints: the same endpoint objects (they drive
// /openapi.json), a rate-limit row, zod-parsed input; but form-encoded bodies (RFC 6749 4.1.3, RFC 8628
// 3.1/3.4), answers that are never cached, and every failure in the RFCs' `{error, error_description}`.

const MAX_BODY_BYTES = 64 * 1024;

export interface OAuthContext<B> {
  request: NextRequest;
  body: B;
}

type BodyOf<E extends Endpoint> = [Exclude<E["body"], undefined>] extends [never]
  ? undefined
  : Exclude<E["body"], undefined> extends ZodType
    ? core.output<Exclude<E["body"], undefined>>
    : undefined;

export function withOAuth<E extends Endpoint>(
  endpoint: E,
  handler: (ctx: OAuthContext<BodyOf<E>>) => Promise<{ status?: number; body: unknown }>,
  options: { invalid?: "invalid_request" | "invalid_client_metadata" } = {},
): (request: NextRequest) => Promise<Response> {
  return async (request) => {
    let limit: RateLimitHeaders | undefined;
    try {
      try {
        limit = endpoint.rateLimit ? await limitRequest(endpoint.rateLimit, request) : undefined;
      } catch (error) {
        if (error instanceof ApiError && error.status === 429)
          throw new OAuthError("rate_limited", error.detail, 429, error.headers);
        throw error;
      }
      const body = endpoint.body
        ? parseBody(endpoint.body, await readParameters(request, endpoint), options.invalid ?? "invalid_request")
        : undefined;
      const result = await handler({ request, body: body as BodyOf<E> });
      return withRateLimitHeaders(
        NextResponse.json(result.body, { status: result.status ?? endpoint.status ?? 200, headers: NO_STORE }),
        limit,
      );
    } catch (error) {
      if (error instanceof OAuthError) return withRateLimitHeaders(oauthErrorResponse(error), limit);
      // The client's doing (its body ended early): answered in the RFCs' shape, logged as a warning.
      const fault = clientFault(error);
      if (fault) {
        logClientFault(fault, `${endpoint.method} ${endpoint.path}`);
        const status = fault.status === 401 ? 400 : fault.status;
        return withRateLimitHeaders(oauthErrorResponse(new OAuthError("invalid_request", fault.detail, status)), limit);
      }
      return internalErrorResponse(error, `${endpoint.method} ${endpoint.path}`);
    }
  };
}

/** The request's parameters as a flat object: form-encoded always, JSON where the endpoint allows it. */
export async function readParameters(
  request: Request,
  endpoint: Pick<Endpoint, "oauth">,
): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(request, {
    maxBytes: MAX_BODY_BYTES,
    tooLarge: () => new OAuthError("invalid_request", "The request body is larger than 64 KiB.", 413),
  });
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return {};
  if (type === "application/json" && endpoint.oauth?.body === "form or json") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new OAuthError("invalid_request", "The body is not valid JSON.");
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new OAuthError("invalid_request", "The body must be a JSON object.");
    return value as Record<string, unknown>;
  }
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const params = new URLSearchParams(text);
  const out = clientKeyed<string>();
  for (const key of new Set(params.keys())) {
    // RFC 6749 3.1: parameters must not be repeated.
    if (params.getAll(key).length > 1) throw new OAuthError("invalid_request", `The parameter '${key}' is repeated.`);
    out[key] = params.get(key)!;
  }
  return out;
}

// PostgreSQL text cannot hold NUL, and an unpaired surrogate is not text: refused before any lookup.
const NOT_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function assertText(value: unknown, code: "invalid_request" | "invalid_client_metadata", depth = 0): void {
  if (typeof value === "string") {
    if (NOT_TEXT.test(value)) throw new OAuthError(code, "A parameter contains a NUL character or invalid text.");
  } else if (value && typeof value === "object" && depth < 8) {
    for (const [key, item] of Object.entries(value)) {
      assertText(key, code, depth + 1);
      assertText(item, code, depth + 1);
    }
  }
}

function parseBody<S extends ZodType>(
  schema: S,
  raw: unknown,
  code: "invalid_request" | "invalid_client_metadata",
): core.output<S> {
  assertText(raw, code);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? `'${issue.path.join(".")}'` : "the body";
  throw new OAuthError(code, `Invalid ${where}: ${issue.message}`);
}
