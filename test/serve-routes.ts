import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";

// Serves route handlers over real HTTP (node:http → NextRequest → handler → Response), so clients that speak
// HTTP themselves (the MCP SDK's client) can be tested against them without a Next.js build.

/** `params` is null for a path without dynamic segments: Next.js gives such a route no params at all. */
type Handler = (request: NextRequest, params: Record<string, string | string[]> | null) => Promise<Response>;

export interface ServedRoutes {
  url: string;
  close(): Promise<void>;
}

type RouteModule = Record<string, unknown>;
type RouteHandler = (
  request: NextRequest,
  route: { params: Promise<Record<string, string | string[]> | undefined> },
) => Promise<Response>;

/** A route file's handler, imported on first use (after the test has set APP_URL to this server's origin). */
export const lazy =
  (load: () => Promise<RouteModule>, method: string): Handler =>
  async (request, params) =>
    ((await load())[method] as RouteHandler)(request, { params: Promise.resolve(params ?? undefined) });

/**
 * The handlers of the path `pathname` and its parameters: an exact key first, then keys written the way
 * app/ folders are named, `/v1/jobs/[job_id]` (one segment) and `/uploads/[...path]` (the rest).
 */
function match(routes: Record<string, Partial<Record<string, Handler>>>, pathname: string) {
  if (routes[pathname]) return { methods: routes[pathname], params: null };
  const segments = pathname.split("/");
  for (const [key, methods] of Object.entries(routes)) {
    const params = matchPattern(key.split("/"), segments);
    if (params) return { methods, params };
  }
  return null;
}

function matchPattern(pattern: string[], segments: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (const [i, part] of pattern.entries()) {
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(part)?.[1];
    if (catchAll && i === pattern.length - 1 && segments.length > i) {
      params[catchAll] = segments.slice(i).map(decodeURIComponent);
      return params;
    }
    const name = /^\[(\w+)\]$/.exec(part)?.[1];
    if (name && segments[i]) params[name] = decodeURIComponent(segments[i]);
    else if (part !== segments[i]) return null;
  }
  return pattern.length === segments.length ? params : null;
}

/** Listens on 127.0.0.1 (a free port); `routes` maps paths (exact, or with [param] segments) to their method handlers. */
export async function serveRoutes(routes: Record<string, Partial<Record<string, Handler>>>): Promise<ServedRoutes> {
  const server = http.createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      console.error("[serve-routes]", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const found = match(routes, url.pathname);
    const handler = found?.methods[req.method ?? "GET"];
    if (!found || !handler) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ detail: "Not found.", code: "not_found" }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new NextRequest(url, {
      method: req.method,
      headers,
      body: hasBody ? bodyStream(req) : undefined,
      signal: abort.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await handler(request, found.params);
    const outHeaders = Object.fromEntries(response.headers.entries());
    // A body the handler did not read to the end (a 413): close the connection rather than reuse it.
    if (hasBody && !req.readableEnded) outHeaders.connection = "close";
    res.writeHead(response.status, outHeaders);
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    }
    res.end();
  }
  /** The request body as a web stream; cancelling it (a 413) drains the rest instead of destroying the socket. */
  function bodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
    const iterator = req[Symbol.asyncIterator]();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value as Buffer));
      },
      cancel() {
        req.removeAllListeners("data");
        req.on("data", () => undefined);
        req.resume();
      },
    });
  }
  // The client and this server share one event loop: under load both idle timers (the client's and Node's default
  // 5 s here) can fire late, together, and the client sends on a socket this server is closing (ECONNRESET). This
  // server never closes an idle connection; the client's own idle timeout and close() end them.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
