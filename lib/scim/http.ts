import { NextResponse, type NextRequest } from "next/server";
import { ApiError } from "@/lib/http/errors";
import { readBodyBytes } from "@/lib/http/body";
import { parseJsonBody } from "@/lib/http/json-body";
import { RequestValidationError } from "@/lib/http/validation";
import { scimErrorBody, SCIM_MEDIA_TYPE } from "@/lib/http/scim-shape";
import { unstorableReason } from "@/lib/db/storable-text";
import { log } from "@/lib/observability/logger";
import { bodyProblem, prototypeName } from "@/lib/scim/input";
import { findScimTeam } from "@/lib/scim/tokens";

// The SCIM 2.0 protocol's HTTP side (RFC 7644 §3.12): the team's bearer token, JSON bodies of media type
// application/scim+json, and errors in SCIM's shape, never the API's {detail, code}.

const MAX_BODY_BYTES = 1024 * 1024;

/** RFC 7644 §3.12's scimType values this server answers with. */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = "ScimError";
  }
}

export const scimErrors = {
  invalidValue: (detail: string) => new ScimError(400, detail, "invalidValue"),
  invalidSyntax: (detail: string) => new ScimError(400, detail, "invalidSyntax"),
  invalidFilter: (detail: string) => new ScimError(400, detail, "invalidFilter"),
  invalidPath: (detail: string) => new ScimError(400, detail, "invalidPath"),
  notFound: (what: string, id: string) => new ScimError(404, `${what} ${id} not found.`),
  uniqueness: (detail: string) => new ScimError(409, detail, "uniqueness"),
};

export function scimJson(body: unknown, status = 200, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(JSON.stringify(body), {
    status,
    headers: { "content-type": SCIM_MEDIA_TYPE, "cache-control": "no-store", ...headers },
  });
}

export function scimErrorResponse(status: number, detail: string, scimType?: ScimType): NextResponse {
  return scimJson(
    scimErrorBody(status, detail, scimType),
    status,
    status === 401 ? { "www-authenticate": 'Bearer realm="scim"' } : {},
  );
}

/** Any method on a /scim/v2 path no SCIM route serves (app/scim/v2/[[...path]]). */
export async function unknownScimPath(): Promise<Response> {
  return scimErrorResponse(404, "No SCIM resource at this path: the resources are /Users and /Groups.");
}

/** Query parameters that name attributes: a name that reaches a prototype is refused in them as in a PATCH path. */
const ATTRIBUTE_LISTS = ["attributes", "excludedAttributes", "sortBy"];

/** The path's parameters and the query, as text PostgreSQL can hold and without names that reach a prototype. */
function checkTarget(request: NextRequest, params: Record<string, string>): void {
  const query = [...request.nextUrl.searchParams];
  for (const [name, value] of [...Object.entries(params), ...query]) {
    const reason = unstorableReason(value) ?? unstorableReason(name);
    if (reason) throw scimErrors.invalidValue(`${name.slice(0, 40)}: ${reason.replace(/^Value error, /, "")}.`);
  }
  for (const [name, value] of query) {
    const reached = ATTRIBUTE_LISTS.includes(name) ? prototypeName(value) : null;
    if (reached) throw scimErrors.invalidPath(`${name} names ${reached}, which is no attribute.`);
  }
}

/** The team a request's SCIM token acts for; anything else (an API key, a session, a revoked token) is a 401. */
async function scimTeam(request: NextRequest): Promise<{ teamId: string; slug: string | null }> {
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(request.headers.get("authorization") ?? "");
  const team = match ? await findScimTeam(match[1]) : null;
  if (!team) throw new ScimError(401, "Send the team's SCIM token as 'Authorization: Bearer <token>'.");
  return team;
}

export interface ScimContext {
  request: NextRequest;
  teamId: string;
  slug: string | null;
  params: Record<string, string>;
  /** The JSON body (POST, PUT, PATCH). */
  body: () => Promise<unknown>;
}

/** Next.js gives a route without dynamic segments (/scim/v2/Users) no params at all. */
type RouteContext = { params?: Promise<Record<string, string | string[]> | undefined> };

/** A SCIM route handler: the team's token checked, every failure answered in SCIM's error shape. */
export function scimRoute(
  handler: (ctx: ScimContext) => Promise<Response>,
): (request: NextRequest, route: RouteContext) => Promise<Response> {
  return async (request, route) => {
    try {
      const { teamId, slug } = await scimTeam(request);
      const params = Object.fromEntries(
        Object.entries((await route?.params) ?? {}).map(([key, value]) => [
          key,
          Array.isArray(value) ? value.join("/") : value,
        ]),
      );
      checkTarget(request, params);
      return await handler({ request, teamId, slug, params, body: () => readBody(request) });
    } catch (error) {
      if (error instanceof ScimError) return scimErrorResponse(error.status, error.detail, error.scimType);
      if (error instanceof RequestValidationError)
        return scimErrorResponse(400, error.items[0]?.msg ?? "The body is not valid JSON.", "invalidSyntax");
      // A unique index lost to a concurrent request outside the team's lock (two teams making one person's account).
      if ((error as { code?: unknown } | null)?.code === "P2002")
        return scimErrorResponse(
          409,
          "A concurrent request made this resource first: send the request again.",
          "uniqueness",
        );
      if (error instanceof ApiError) {
        if (error.code === "last_owner") return scimErrorResponse(409, error.detail, "mutability");
        if (error.status < 500) return scimErrorResponse(error.status, error.detail);
      }
      log.error({ err: error, path: request.nextUrl.pathname }, "SCIM request failed");
      return scimErrorResponse(500, "The server failed to answer this request. Try again later.");
    }
  };
}

async function readBody(request: NextRequest): Promise<unknown> {
  const bytes = await readBodyBytes(request, {
    maxBytes: MAX_BODY_BYTES,
    tooLarge: () => new ScimError(413, "The body is larger than 1 MiB."),
  });
  const body = parseJsonBody(bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw scimErrors.invalidSyntax("The body must be a JSON object.");
  const problem = bodyProblem(body);
  if (problem) throw scimErrors.invalidValue(problem);
  return body;
}
