import type { ZodType } from "zod";
import type { AuthRequirement, Permission } from "@/lib/http/permissions";
import type { RateLimitName } from "@/lib/http/rate-limits";

// An endpoint's contract in one object: routes wrap it with withApi, and /openapi.json is generated
// from the same objects, so the description cannot drift from what the handlers accept.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Endpoint<
  Q extends ZodType | undefined = ZodType | undefined,
  B extends ZodType | undefined = ZodType | undefined,
  P extends ZodType | undefined = ZodType | undefined,
> {
  method: Method;
  /** OpenAPI-style path, e.g. /v1/jobs/{job_id} */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** No credential, or the row of the permission table (lib/http/permissions.ts) the caller's credential must be in. */
  auth: AuthRequirement;
  /**
   * Body fields that need a further row of the permission table when they are given: a request's `webhook_url`
   * is signed with the account's request secret, which only the `webhooks` row may have deliveries signed with.
   */
  fieldAuth?: Record<string, Permission>;
  query?: Q;
  body?: B;
  params?: P;
  /** Success status and schema; `null` schema means no body (e.g. 204). */
  status?: number;
  response?: ZodType | null;
  /**
   * The success answer's media types when it is not (only) JSON: a download's formats or a file's bytes. Each
   * type maps to its body: a zod schema (JSON), "text" or "binary". Replaces `response`.
   */
  content?: Record<string, ZodType | "text" | "binary">;
  /** A 202 answer the endpoint may give instead (e.g. a queued job). */
  accepted?: { description: string; schema: ZodType };
  /** The row of lib/http/rate-limits.ts that applies, checked before the input is parsed (invalid requests count too). */
  rateLimit?: RateLimitName;
  /** Other documented outcomes, status → description. */
  errors?: Record<number, string>;
  /** The largest JSON body accepted (default 1 MiB); a larger one is a 413. */
  maxBodyBytes?: number;
  /**
   * OAuth and device-flow endpoints (lib/oauth/handler.ts): errors are RFC 6749 `{error, error_description}`
   * rather than `{detail, code}`, and the body may be form-encoded (the RFCs' encoding) as well as JSON.
   */
  oauth?: { body: "form" | "form or json" };
  /**
   * Readable from any web page: every answer, errors and 304s included, carries `Access-Control-Allow-Origin: *`
   * and `Access-Control-Expose-Headers` (lib/http/cors.ts); its route file exports `OPTIONS = corsPreflight`.
   */
  anyOrigin?: true;
}

export function defineEndpoint<
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  P extends ZodType | undefined = undefined,
>(endpoint: Endpoint<Q, B, P>): Endpoint<Q, B, P> {
  return endpoint;
}
