import type http from "node:http";
import { log } from "@/lib/observability/logger";
import { httpRequestDuration } from "@/lib/observability/metrics";
import { requestIdFrom } from "@/lib/observability/request-context";

// Every request the Node.js server receives (called from the request guard, lib/http/request-guard.ts):
// its request id, sent back as X-Request-Id; when the answer is done, one log line and one latency
// observation labelled with the route's template, never the raw path (bounded label values).

// Top-level app folders that are pages or non-API routes, labelled "/<folder>" or "/<folder>/*".
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const APP_FOLDERS = new Set([
  "dashboard",
  "device",
  "docs",
  "explore",
  "oauth",
  "signin",
  "t",
  "uploads",
  "sitemaps",
  "api",
  "_next",
  "metrics",
  "mcp",
]);

/** The label of a request path: its endpoint template when described, else its top-level folder, else "other". */
export function routeLabel(path: string, template: (path: string) => string | undefined): string {
  const described = template(path);
  if (described) return described;
  if (path === "/") return "/";
  const [, first = "", ...rest] = path.split("/");
  if (!APP_FOLDERS.has(first)) return "other";
  return rest.length > 0 ? `/${first}/*` : `/${first}`;
}

/** Gives the request its id (also on the request, for route handlers) and observes the answer; returns the id. */
export function instrumentRequest(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  template: (path: string) => string | undefined,
): string {
  const requestId = requestIdFrom(request.headers["x-request-id"]);
  request.headers["x-request-id"] = requestId;
  response.setHeader("x-request-id", requestId);
  const started = process.hrtime.bigint();
  response.once("close", () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const path = (request.url ?? "/").split("?")[0]!;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path;
    }
    const route = routeLabel(decoded, template);
    const status = response.writableFinished ? response.statusCode : 499;
    // WebDAV and other methods Node parses arrive too (the guard refuses them): label values stay few.
    const method = KNOWN_METHODS.has(request.method ?? "") ? request.method! : "other";
    httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
    const line = {
      requestId,
      method: request.method?.slice(0, 20),
      route,
      path: path.slice(0, 256),
      status,
      ms: Math.round(seconds * 10_000) / 10,
    };
    if (route.startsWith("/_next")) log.debug(line, "request");
    else log.info(line, "request");
  });
  return requestId;
}
