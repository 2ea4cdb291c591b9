import http from "node:http";
import type { Endpoint } from "@/lib/http/endpoint";

// Requests Next.js cannot represent never reach it: Next builds a WHATWG Request for every route, and
// the fetch standard refuses TRACE and TRACK ("TypeError: 'TRACE' HTTP method is unsupported"), so
// Next answers them with a plain-text 500; a path that is not valid percent-encoding fails Next's
// decoding of dynamic segments, also a plain-text 500; and a route file answers a method it does not
// export with an empty 405. No user code (proxy.ts, route handlers) runs before those answers, so
// this guard sits one step earlier, on the Node.js server's "request" event (installed once from
// instrumentation.ts), and answers in the contract's {detail, code} shape instead:
//   - a method outside GET HEAD POST PUT PATCH DELETE OPTIONS → 405 for any path;
//   - a path that does not decode → 400 invalid_path;
//   - a described API path (the endpoint table /openapi.json is built from) with a method it does not
//     serve → 405 with Allow.
// Everything else goes to Next unchanged; unknown /v1 paths are answered by app/v1/[...path]/route.ts.
// Only origin-form request targets are looked at, so another server in the process that receives
// absolute URLs (a forward proxy) is not affected; CONNECT never reaches "request" (Node emits "connect").

const FETCH_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface Refusal {
  status: number;
  body: { detail: string; code: string };
  headers: Record<string, string>;
}

export interface RouteTable {
  match(path: string): readonly string[] | undefined;
}

/** Path templates (`/v1/jobs/{job_id}`) → the methods served there, HEAD with GET, OPTIONS always. */
export function routeTable(endpoints: readonly Pick<Endpoint, "method" | "path">[]): RouteTable {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of endpoints) {
    let route = routes.get(path);
    if (!route) {
      const source = path
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      route = { pattern: new RegExp(`^${source}$`), methods: new Set(["OPTIONS"]) };
      routes.set(path, route);
    }
    route.methods.add(method);
    if (method === "GET") route.methods.add("HEAD");
  }
  const list = [...routes.values()].map(({ pattern, methods }) => ({ pattern, methods: [...methods].sort() }));
  return { match: (path) => list.find((route) => route.pattern.test(path))?.methods };
}

/** Why Next must not see this request, or null to let it through. */
export function refusal(method: string | undefined, url: string | undefined, table: RouteTable): Refusal | null {
  const upper = (method ?? "").toUpperCase();
  if (!FETCH_METHODS.has(upper)) {
    return {
      status: 405,
      body: { detail: `The ${upper.slice(0, 20) || "empty"} method is not served here.`, code: "method_not_allowed" },
      headers: {},
    };
  }
  const rawPath = (url ?? "/").split("?")[0];
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { status: 400, body: { detail: "The request path is not valid percent-encoding.", code: "invalid_path" }, headers: {} };
  }
  const allowed = table.match(path);
  if (allowed && !allowed.includes(upper)) {
    return {
      status: 405,
      body: { detail: `${upper} is not served at this path; it serves ${allowed.join(", ")}.`, code: "method_not_allowed" },
      headers: { allow: allowed.join(", ") },
    };
  }
  return null;
}

const INSTALLED = Symbol.for("verbatim.requestGuard");

/**
 * Wraps http.Server's "request" event for every server in this process (Next's included), once.
 * Returns the function that takes it off again (for tests).
 */
export function installRequestGuard(table: RouteTable): () => void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return () => undefined;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function guardedEmit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
    // Only origin-form targets ("/path"): a forward proxy in this process sees absolute URLs and is left alone.
    if (event === "request" && request?.url?.startsWith("/")) {
      const refused = refusal(request.method, request.url, table);
      if (refused) {
        const body = JSON.stringify(refused.body);
        response.writeHead(refused.status, {
          ...refused.headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "x-content-type-options": "nosniff",
        });
        response.end(body);
        // Whatever body the client sends is not read; drain it so the connection can be reused.
        request.resume();
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
  return () => {
    proto.emit = emit;
    delete proto[INSTALLED];
  };
}
