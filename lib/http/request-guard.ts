import http from "node:http";
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import type { Endpoint } from "@/lib/http/endpoint";
import type { ErrorCode } from "@/lib/http/error-codes";
import { stampPeerAddress } from "@/lib/http/client-address";
import { unstorableReason } from "@/lib/db/storable-text";
import { actionBodyProblem, readAndPutBack } from "@/lib/http/action-body";
import { noteAnswered } from "@/lib/http/first-response";
import { isScimPath, scimErrorBody, SCIM_MEDIA_TYPE, type ScimErrorBody } from "@/lib/http/scim-shape";
import { isPublicDataPage, limitPublicPage } from "@/lib/http/public-page-limit";
import { log } from "@/lib/observability/logger";
import { instrumentRequest } from "@/lib/observability/http";
import { withLogContext } from "@/lib/observability/request-context";

// Requests Next.js cannot represent never reach it: Next builds a WHATWG Request for every route, and
// the fetch standard refuses TRACE and TRACK ("TypeError: 'TRACE' HTTP method is unsupported"), so
// Next answers them with a plain-text 500; a path that is not valid percent-encoding fails Next's
// decoding of dynamic segments, also a plain-text 500; and a route file answers a method it does not
// export with an empty 405. No user code (proxy.ts, route handlers) runs before those answers, so
// this guard sits one step earlier, on the Node.js server's "request" event (installed once from
// instrumentation.ts), and answers in the contract's {detail, code} shape instead:
//   - a method outside GET HEAD POST PUT PATCH DELETE OPTIONS → 405 for any path;
//   - the request target `*` (OPTIONS/GET/POST * HTTP/1.1; Next answers it with a plain-text 500) → 400;
//   - a Server Action (or form) POST to a page from another origin (Next throws: a 500) → 403;
//   - a Server Action body Next cannot decode (a form cut short, arguments that are not a JSON array: a
//     500 from Next) → 400 invalid_body (lib/http/action-body.ts reads it and puts it back);
//   - a path that does not decode → 400 invalid_path;
//   - on pages (and their Server Actions), a path or query holding text PostgreSQL cannot store (NUL, an
//     unpaired surrogate: lib/db/storable-text.ts) → 400 invalid_text; the REST API answers those with its
//     own 422 (lib/http/validation.ts), the same rule, and the other described routes (OAuth's, /mcp) with
//     their own shapes;
//   - a described API path (the endpoint table /openapi.json is built from) with a method it does not
//     serve → 405 with Allow.
// Anonymous pages that read the database (/explore, /t/…, the sitemaps) are counted against their rate
// limit here, and answered 429 past it (lib/http/public-page-limit.ts): before Next.js's cache or proxy.ts.
// Every request also gets its request id (X-Request-Id), a log line and a latency observation here
// (lib/observability/http.ts), and runs in its log context.
// Under /scim/v2 each of these answers is in SCIM's error shape instead (lib/http/scim-shape.ts), as the SCIM routes'
// own are. Everything else goes to Next unchanged; unknown /v1 paths are answered by app/v1/[...path]/route.ts, and
// unknown /scim/v2 paths by app/scim/v2/[[...path]]/route.ts.
// Requests Node's parser refuses itself ("clientError": headers over 16 KiB → 431, broken HTTP → 400)
// get the same statuses with a JSON body. Only origin-form request targets are looked at, so another server in the process that receives
// absolute URLs (a forward proxy) is not affected; CONNECT never reaches "request" (Node emits "connect").

const FETCH_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type ContractBody = { detail: string; code: ErrorCode };

export interface Refusal {
  status: number;
  body: ContractBody | ScimErrorBody;
  headers: Record<string, string>;
}

export interface RouteTable {
  match(path: string): readonly string[] | undefined;
  /** The described path template (`/v1/jobs/{job_id}`) a path belongs to. */
  template(path: string): string | undefined;
}

/** Path templates (`/v1/jobs/{job_id}`) → the methods served there, HEAD with GET, OPTIONS always. */
export function routeTable(endpoints: readonly Pick<Endpoint, "method" | "path">[]): RouteTable {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of endpoints) {
    let route = routes.get(path);
    if (!route) {
      const expression = path
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      route = { pattern: new RegExp(`^${expression}$`), methods: new Set(["OPTIONS"]) };
      routes.set(path, route);
    }
    route.methods.add(method);
    if (method === "GET") route.methods.add("HEAD");
  }
  // Fixed paths before those with parameters, as Next.js routes (/v1/public/index is not the slug "index"),
  // whatever order the endpoints came in.
  const parameters = (template: string) => template.split("{").length - 1;
  const list = [...routes]
    .map(([template, { pattern, methods }]) => ({ template, pattern, methods: [...methods].sort() }))
    .sort((a, b) => parameters(a.template) - parameters(b.template));
  return {
    match: (path) => list.find((route) => route.pattern.test(path))?.methods,
    template: (path) => list.find((route) => route.pattern.test(path))?.template,
  };
}

/** Why Next must not see this request, or null to let it through. */
export function refusal(
  method: string | undefined,
  url: string | undefined,
  table: RouteTable,
  headers: http.IncomingHttpHeaders = {},
): Refusal | null {
  const found = contractRefusal(method, url, table, headers);
  return found && underScim(url) ? scimShaped(found) : found;
}

function underScim(url: string | undefined): boolean {
  const path = routedPath((url ?? "/").split("?")[0]!);
  try {
    return isScimPath(decodeURIComponent(path));
  } catch {
    return isScimPath(path);
  }
}

function scimShaped({ status, body, headers }: Refusal): Refusal {
  const scimType = "code" in body && body.code === "invalid_text" ? "invalidValue" : undefined;
  return {
    status,
    body: scimErrorBody(status, body.detail, scimType),
    headers: { ...headers, "content-type": SCIM_MEDIA_TYPE },
  };
}

function contractRefusal(
  method: string | undefined,
  url: string | undefined,
  table: RouteTable,
  headers: http.IncomingHttpHeaders,
): Refusal | null {
  const upper = (method ?? "").toUpperCase();
  if (!FETCH_METHODS.has(upper)) {
    return {
      status: 405,
      body: { detail: `The ${upper.slice(0, 20) || "empty"} method is not served here.`, code: "method_not_allowed" },
      headers: {},
    };
  }
  if (url === "*") {
    // The asterisk-form target (RFC 9112 §3.2.4: `OPTIONS * HTTP/1.1`, also sent with other methods) names
    // no resource; Next.js cannot route it.
    return {
      status: 400,
      body: { detail: "The request target * names no resource here; send a path.", code: "invalid_path" },
      headers: {},
    };
  }
  const rawPath = (url ?? "/").split("?")[0]!;
  let path: string;
  try {
    path = decodeURIComponent(routedPath(rawPath));
  } catch {
    return {
      status: 400,
      body: { detail: "The request path is not valid percent-encoding.", code: "invalid_path" },
      headers: {},
    };
  }
  if (!/^\/v1(\/|$)/.test(path) && !table.match(path)) {
    const query = (url ?? "").includes("?")
      ? new URLSearchParams((url ?? "").slice((url ?? "").indexOf("?") + 1))
      : null;
    const texts = [path, ...(query ? [...query].flat() : [])];
    const reason = texts.map(unstorableReason).find((r) => r !== null);
    if (reason)
      return {
        status: 400,
        body: {
          detail: `The request path or query cannot be read: ${reason.replace(/^Value error, /, "")}.`,
          code: "invalid_text",
        },
        headers: {},
      };
  }
  if (upper === "POST" && crossOriginAction(path, headers, table)) {
    return {
      status: 403,
      body: { detail: "Forms and Server Actions are only accepted from this site's own pages.", code: "forbidden" },
      headers: {},
    };
  }
  const allowed = table.match(path);
  if (allowed && !allowed.includes(upper)) {
    return {
      status: 405,
      body: {
        detail: `${upper} is not served at this path; it serves ${allowed.join(", ")}.`,
        code: "method_not_allowed",
      },
      headers: { allow: allowed.join(", ") },
    };
  }
  return null;
}

/**
 * The path as Next.js routes it: dot segments ("/./", "/../", also as %2e) resolved, as the WHATWG URL
 * parser does, so that `/v1/me/webhooks/./deliveries` is matched as the `/v1/me/webhooks/deliveries` Next serves.
 */
export function routedPath(rawPath: string): string {
  if (!/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(rawPath)) return rawPath;
  try {
    return new URL(rawPath, "http://path.invalid").pathname;
  } catch {
    return rawPath;
  }
}

/**
 * A POST to a page that Next.js would take as a Server Action (a `Next-Action` header, or a form body) from
 * another origin: Next refuses it by throwing (a 500 in text/x-component). Same rule as Next's (the Origin's
 * host against X-Forwarded-Host, else Host; no Origin passes), answered as a 403 before Next sees it.
 */
function crossOriginAction(path: string, headers: http.IncomingHttpHeaders, table: RouteTable): boolean {
  const origin = headers.origin;
  if (!possibleAction(path, headers, table) || origin === undefined) return false;
  let originHost: string | null;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = null; // "null" (a sandboxed or opaque origin), or no URL at all
  }
  const forwarded = headers["x-forwarded-host"];
  const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() || headers.host;
  return !originHost || !host || originHost !== host;
}

/**
 * A POST to a page (not a route handler) that Next.js would take as a Server Action: the method is not checked.
 * Under /oauth only the route handlers the table describes (token, register, revoke) are not pages: the
 * consent page /oauth/authorize is one, guarded like /device.
 */
function possibleAction(path: string, headers: http.IncomingHttpHeaders, table: RouteTable): boolean {
  if (/^\/(v1|api|uploads|mcp|\.well-known)(\/|$)/.test(path) || table.match(path)) return false;
  const type = String(headers["content-type"] ?? "").toLowerCase();
  return (
    headers["next-action"] !== undefined ||
    type.startsWith("multipart/form-data") ||
    type.startsWith("application/x-www-form-urlencoded")
  );
}

function answer(
  response: http.ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Refusal["body"],
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    ...headers,
    "content-length": Buffer.byteLength(text),
    "x-content-type-options": "nosniff",
  });
  response.end(text);
}

// Requests Node's HTTP parser refuses (a request line or headers over 16 KiB, broken framing) never
// become "request" events; Node writes a bare status line on its own. Same statuses, with a body.
const CLIENT_ERRORS: Record<string, ContractBody & { status: number; reason: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    detail: "The request line and headers are larger than 16 KiB.",
    code: "headers_too_large",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: "Payload Too Large",
    detail: "The chunk extensions are too large.",
    code: "payload_too_large",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    detail: "The request took too long to arrive.",
    code: "request_timeout",
  },
};

function answerClientError(error: NodeJS.ErrnoException | undefined, socket: Duplex | undefined): boolean {
  if (!error?.code || !socket?.writable) return false;
  const known =
    CLIENT_ERRORS[error.code] ??
    (error.code.startsWith("HPE_")
      ? { status: 400, reason: "Bad Request", detail: "The request is not valid HTTP.", code: "bad_request" }
      : null);
  if (!known) return false;
  // Like Node's own answer: only while nothing of a response has been written on this connection.
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (pending?.headersSent) return false;
  const body = JSON.stringify({ detail: known.detail, code: known.code });
  // An answer to HEAD has no body (a client would read one as data after the answer).
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
  socket.end(
    `HTTP/1.1 ${known.status} ${known.reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nX-Request-Id: ${randomUUID()}\r\n\r\n${head ? "" : body}`,
  );
  return true;
}

/** Node's request headers as clientAddress reads them. */
function nodeHeaders(headers: http.IncomingHttpHeaders): { get(name: string): string | null } {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
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
    const pass = () => emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    // Only origin-form targets ("/path") and the asterisk-form ("*"): a forward proxy in this process sees
    // absolute URLs and is left alone.
    if (event === "request" && (request?.url?.startsWith("/") || request?.url === "*")) {
      stampPeerAddress(request);
      const requestId = instrumentRequest(request, response, table.template);
      response.once("close", noteAnswered);
      const refused = refusal(request.method, request.url, table, request.headers);
      if (refused) {
        answer(response, refused.status, refused.headers, refused.body);
        // Whatever body the client sends is not read; drain it so the connection can be reused.
        request.resume();
        return true;
      }
      const path = routedPath((request.url ?? "/").split("?")[0]!);
      const proceed = () => {
        if (request.method === "POST" && possibleAction(path, request.headers, table)) {
          // A Server Action's body is checked before Next decodes it (action-body.ts).
          void readAndPutBack(request).then((body) => {
            const problem = body ? actionBodyProblem(request.headers, body) : null;
            if (!problem) return withLogContext({ requestId }, pass);
            answer(response, 400, {}, { detail: problem, code: "invalid_body" });
            request.resume();
          });
          return true;
        }
        return withLogContext({ requestId }, pass);
      };
      // Decoded (refusal() has checked that it decodes): "/%74/x" is "/t/x" to Next.js's router too.
      const page = decodeURIComponent(path);
      if (!isPublicDataPage(page)) return proceed();
      void limitPublicPage(page, nodeHeaders(request.headers)).then(
        (limited) => {
          if (!limited) return proceed();
          response.writeHead(limited.status, { ...limited.headers, "content-length": Buffer.byteLength(limited.body) });
          response.end(request.method === "HEAD" ? undefined : limited.body);
          request.resume();
        },
        (error: unknown) => {
          // The limiter itself failed (it falls back to in-process counts when Redis is away): serve the page.
          log.error({ err: error, requestId }, "public page rate limit failed");
          proceed();
        },
      );
      return true;
    }
    if (event === "clientError" && answerClientError(args[0] as NodeJS.ErrnoException, args[1] as Duplex)) return true;
    return pass();
  } as typeof proto.emit;
  return () => {
    proto.emit = emit;
    delete proto[INSTALLED];
  };
}
