import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";

// Requests over node:http(s). Not Node's fetch: its first request compiles undici's HTTP parser (WebAssembly),
// which costs more start-up time than the whole rest of a `verbatim get` (see scripts/bench/cli.ts); and
// fetch has no upload progress. @verbatim/client takes `nodeFetch` below as its fetch.

export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function httpRequest(
  url: URL,
  init: {
    method: string;
    headers: Record<string, string | number>;
    body?: string | Buffer | Readable;
    signal?: AbortSignal;
  },
): Promise<HttpAnswer> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: init.method, headers: init.headers, signal: init.signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    request.on("error", reject);
    if (init.body === undefined || typeof init.body === "string" || Buffer.isBuffer(init.body)) request.end(init.body);
    else {
      init.body.on("error", (error) => request.destroy(error));
      init.body.pipe(request);
    }
  });
}

/** A request whose answer's body is handed over unread, as bytes arrive (an export's zip), never held whole. */
export function httpStream(
  url: URL,
  init: { method: string; headers: Record<string, string | number>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: http.IncomingMessage }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: init.method, headers: init.headers }, (response) =>
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.on("error", reject);
    request.end(init.body);
  });
}

const NO_BODY = new Set([101, 204, 205, 304]);

/** A fetch for JSON APIs over httpRequest: the whole body is read, redirects are not followed. */
export async function nodeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request && init === undefined ? input : new Request(input, init);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  if (body) headers["content-length"] = String(body.length);
  const answer = await httpRequest(new URL(request.url), {
    method: request.method,
    headers,
    body,
    signal: request.signal,
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      responseHeaders.append(name, one);
  }
  return new Response(NO_BODY.has(answer.status) ? null : answer.text, {
    status: answer.status,
    headers: responseHeaders,
  });
}
