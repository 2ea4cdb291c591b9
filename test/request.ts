import { NextRequest } from "next/server";

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

/** Calls an exported route handler the way Next.js does, and returns status, headers and JSON. */
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
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? (JSON.parse(text) as unknown) : null,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
