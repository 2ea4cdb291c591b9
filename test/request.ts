import { NextRequest } from "next/server";
import { checkResponse } from "./openapi-contract";

type Handler = (
  request: NextRequest,
  route: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A value is sent as JSON; a string is sent as is (for malformed bodies). */
  body?: unknown;
  params?: Record<string, string>;
}

/**
 * Calls an exported route handler the way Next.js does, and returns status, headers and JSON (and the text). While
 * a contract check is installed (test/openapi-contract.ts), the answer is checked against /openapi.json.
 */
export async function callRoute(handler: Handler, url: string, options: CallOptions = {}) {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const request = new NextRequest(new URL(url, "http://localhost:3000"), {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
    body,
  });
  const response = await handRequest(handler, request, options.params);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: parseJson(text),
  };
}

/**
 * Hands a request made elsewhere (a fake's call to one of our callbacks) to an exported route handler the way
 * Next.js does, and returns its response with the body still unread. While a contract check is installed, the
 * answer is checked against /openapi.json.
 */
export async function handRequest(
  handler: Handler,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  const next = request instanceof NextRequest ? request : new NextRequest(request);
  const response = await handler(next, { params: Promise.resolve(params) });
  checkResponse({
    method: next.method,
    url: next.url,
    status: response.status,
    contentType: response.headers.get("content-type"),
    text: await response.clone().text(),
  });
  return response;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** JSON when the body is JSON (downloads in other formats are text). */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
