import { NextResponse, type NextRequest } from "next/server";
import type { core, ZodType } from "zod";
import { authenticate, type Principal } from "@/lib/auth/principal";
import type { Endpoint } from "@/lib/http/endpoint";
import { ApiError, errorResponse, errors, internalErrorResponse } from "@/lib/http/errors";
import { reportFailure } from "@/lib/observability/failure-cause";
import { withRateLimitHeaders, type RateLimitHeaders } from "@/lib/http/rate-limits";
import { readBodyBytes } from "@/lib/http/body";
import { parseJsonBody } from "@/lib/http/json-body";
import { parseInput, RequestValidationError, validationResponse } from "@/lib/http/validation";
import { withAnyOrigin } from "@/lib/http/cors";
import { runOperation } from "@/lib/auth/operation";

// The one wrapper every /v1 route handler goes through: authenticate, run the operation's pipeline
// (lib/auth/operation.ts: role, rate limit, params/query/body parsed with the endpoint's zod schemas, the handler,
// the audit line), and map every failure to the contract's shapes.

const MAX_JSON_BODY_BYTES = 1024 * 1024;

// Optional schema slots are `Schema | undefined`; map "no schema" to undefined without distributing.
type Out<S> = [Exclude<S, undefined>] extends [never]
  ? undefined
  : Exclude<S, undefined> extends ZodType
    ? core.output<Exclude<S, undefined>>
    : undefined;

export interface ApiContext<E extends Endpoint> {
  request: NextRequest;
  query: Out<E["query"]>;
  body: Out<E["body"]>;
  params: Out<E["params"]>;
  /** Present unless the endpoint's auth is "none". */
  principal: E["auth"] extends "none" ? undefined : Principal;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function withApi<E extends Endpoint>(
  endpoint: E,
  handler: (ctx: ApiContext<E>) => Promise<unknown>,
): (request: NextRequest, route: RouteContext) => Promise<Response> {
  const answer = async (request: NextRequest, route: RouteContext): Promise<Response> => {
    let limit: RateLimitHeaders | undefined;
    try {
      const principal = endpoint.auth === "none" ? undefined : await authenticate(request, endpoint.auth);
      const result = await runOperation(
        endpoint,
        { request, principal, onLimit: (headers) => (limit = headers) },
        {
          parse: async () => ({
            params: endpoint.params ? parseInput(endpoint.params, await route.params, "path") : undefined,
            query: endpoint.query ? parseInput(endpoint.query, queryObject(request), "query") : undefined,
            body: endpoint.body
              ? parseInput(endpoint.body, await readJson(request, endpoint.maxBodyBytes), "body")
              : undefined,
          }),
          handle: (input) => handler({ request, principal, ...input } as ApiContext<E>),
          succeeded: (result) => (result instanceof Response ? result.ok : true),
        },
      );
      if (result instanceof Response) return withRateLimitHeaders(result, limit);
      const status = endpoint.status ?? 200;
      return endpoint.response === null
        ? new NextResponse(null, { status, headers: limit })
        : NextResponse.json(result, { status, headers: limit });
    } catch (error) {
      if (error instanceof RequestValidationError) return withRateLimitHeaders(validationResponse(error.items), limit);
      if (error instanceof ApiError) {
        // The answer is the user's sentence; the operator's cause goes to the log and /metrics.
        if (error.status >= 500)
          reportFailure("api", error.code, error, {
            status: error.status,
            operation: `${endpoint.method} ${endpoint.path}`,
          });
        return withRateLimitHeaders(errorResponse(error), limit);
      }
      return internalErrorResponse(error, `${endpoint.method} ${endpoint.path}`);
    }
  };
  if (!endpoint.anyOrigin) return answer;
  return async (request, route) => withAnyOrigin(await answer(request, route));
}

/** Query parameters as an object; for a repeated scalar the last value wins, as in FastAPI. */
function queryObject(request: NextRequest): Record<string, string> {
  return Object.fromEntries(request.nextUrl.searchParams.entries());
}

async function readJson(request: NextRequest, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyBytes(request, {
    maxBytes,
    tooLarge: () => errors.payloadTooLarge(`The JSON body is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB.`),
  });
  return parseJsonBody(bytes);
}
