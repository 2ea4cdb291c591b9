/**
 * SSRF-safe HTTP client: every request to a user-supplied or platform URL goes through here.
 *
 * How it stays safe (the policy):
 * - every URL (the first and each redirect hop) goes through `checkUrl` (scheme, credentials, ports,
 *   literal internal hosts and names);
 * - for every request the host name is resolved by us and every address checked (connect.ts), and the
 *   request goes to a connection pool bound to exactly one checked address: the pool's `connect` opens
 *   the socket to that IP, so there is no second DNS lookup a rebinding attacker could answer
 *   differently, and a name that rebinds between requests gets a new check (and a new pool);
 * - with a proxy configured, the target is still resolved and checked here and the proxy is asked
 *   for the checked IP (CONNECT ip:port for https, absolute-form http://ip:port/... for http), so the
 *   proxy's own DNS never decides where we go;
 * - redirects are followed by hand (default at most 5), timeouts bound connecting, silence and the
 *   whole call, and bodies are capped at `maxBytes` (after decompression).
 *
 * The transport is undici: one `Pool` per (origin, checked IP) with keep-alive, so consecutive
 * requests to one host reuse a connection; bodies are asked for and decoded compressed (gzip, deflate,
 * br). Settings come in as parameters (lib/env.ts passes them); nothing here reads environment variables.
 *
 * One file on purpose (longer than most): the policy above holds only if the first request, every redirect
 * hop, the proxy path, the pools and the deadlines all follow it, and a reviewer checks that by reading them
 * side by side. The parts that stand alone are modules of their own: the URL and address rules (guard.ts),
 * the checked connection (connect.ts), the proxy tunnel (forward-proxy.ts), the errors (errors.ts).
 */
import net from "node:net";
import { Readable } from "node:stream";
import tls from "node:tls";
import zlib from "node:zlib";

import { Pool, type Dispatcher } from "undici";

import {
  bracket,
  connectProxy,
  defaultResolver,
  isRetryable,
  openSocket,
  parseProxy,
  resolveChecked,
  retryableError,
  type ProxyConfig,
  type Resolver,
  type TlsCa,
} from "./connect";
import { OutboundError } from "./errors";
import { startForwardProxy, type ForwardProxy } from "./forward-proxy";
import { type CheckUrlOptions, checkUrl, effectivePort, normalizeHost } from "./guard";

export type { Resolver } from "./connect";

export interface OutboundSettings {
  /**
   * Test hook: hosts (normalized: lower case, no brackets, no trailing dot) that may be internal,
   * e.g. `(h) => h === "127.0.0.1"` for a fake upstream. Default: none, everything internal refused.
   */
  allowPrivateFor?: (host: string) => boolean;
  /** Host name → addresses. Default: the system resolver (getaddrinfo, all addresses). */
  resolver?: Resolver;
  /** Optional forward proxy, `http://[user:pass@]host:port` or `https://...`. Not itself checked. */
  proxyUrl?: string;
  /** Only these target ports are accepted (after scheme defaults). Default: any port. */
  allowedPorts?: readonly number[];
  /**
   * Extra certificate authorities to trust on top of Node's bundled roots (a TLS-inspecting egress
   * proxy, or a test server's self-signed certificate).
   */
  extraCa?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Sent unless the request sets its own. */
  userAgent?: string;
  /** Defaults for every request made through this instance. */
  defaults?: FetchOptions;
}

export interface FetchOptions {
  /** Default GET. Only GET and HEAD are retried. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest body accepted, in bytes. Default 10 MiB for buffers, 512 MiB for streams. */
  maxBytes?: number;
  /** Resolving + connecting (+ TLS, + proxy tunnel) one socket. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Deadline for the whole call: all redirects and retries until the response head, and for
   * `safeFetchBuffer` the body too. Default 30 s.
   */
  timeoutMs?: number;
  /**
   * Deadline for the whole call including reading the body, for `safeFetchStream` (whose `timeoutMs`
   * ends at the response head): a server that drips a byte at a time within the idle limit is cut off
   * here. Counted from the start of the call. Default 30 min; callers reading small documents pass less.
   */
  totalTimeoutMs?: number;
  /** Socket inactivity limit while waiting for or reading a response. Default 30 s. */
  idleTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Default true. When false a 3xx is returned as is. */
  followRedirects?: boolean;
  /** Extra attempts for GET/HEAD after a network error or 429/502/503/504. Default 2. */
  retries?: number;
  /** First backoff delay; doubles each retry. Default 300 ms. */
  retryBaseDelayMs?: number;
  /** Cap on any single wait between attempts, including a server's Retry-After. Default 5 s. */
  maxRetryDelayMs?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  /** URL of the response actually returned, after redirects. */
  url: string;
  /** Number of redirects followed. */
  redirects: number;
}

export interface BufferResponse extends OutboundResponse {
  body: Buffer;
}

export interface StreamResponse extends OutboundResponse {
  /**
   * The body. Errors with OutboundError(response_too_large) past `maxBytes`, (upstream_timeout)
   * after `idleTimeoutMs` of silence, (upstream_failed) if the upstream cuts it short.
   * Destroy it if you stop reading early.
   */
  body: Readable;
}

export interface Outbound {
  checkUrl(raw: string, opts?: Pick<CheckUrlOptions, "allowedPorts" | "maxLength">): URL;
  safeFetchBuffer(url: string | URL, opts?: FetchOptions): Promise<BufferResponse>;
  safeFetchStream(url: string | URL, opts?: FetchOptions): Promise<StreamResponse>;
  /**
   * `http://<token>@127.0.0.1:<port>`: a forward proxy (CONNECT and plain HTTP) on a loopback port that
   * applies this instance's guard to every connection and chains to its proxy. For child processes that
   * make their own connections (yt-dlp `--proxy`). Started on first use, once per instance.
   */
  toolProxyUrl(): Promise<string>;
  /** Closes the forward proxy (if started) and every pooled connection. */
  close(): Promise<void>;
}

const DEFAULTS = {
  method: "GET",
  maxBytesBuffer: 10 * 1024 * 1024,
  maxBytesStream: 512 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  timeoutMs: 30_000,
  streamTotalTimeoutMs: 30 * 60_000,
  idleTimeoutMs: 30_000,
  maxRedirects: 5,
  retries: 2,
  retryBaseDelayMs: 300,
  maxRetryDelayMs: 5_000,
  userAgent: "Verbatim/0.1",
  /** Pools kept at once (one per origin and checked address); the least recently used one is closed. */
  maxPools: 64,
  /** Idle keep-alive connections are closed after this long (or the server's Keep-Alive hint). */
  keepAliveTimeoutMs: 4_000,
  /** Connections per pool. */
  connectionsPerPool: 8,
};

/** What we ask for and decode; anything else is passed through as sent. */
const ACCEPT_ENCODING = "gzip, deflate, br";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRYABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  // undici: the socket closed or failed under a request (e.g. a pooled connection the server had dropped)
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
/** Hop-by-hop headers undici manages itself (it refuses some of them outright). */
const TRANSPORT_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "expect",
]);

/** Per-call state shared by every hop and attempt. */
interface CallContext {
  started: number;
  deadline: number;
  timedOut: boolean;
  userSignal: AbortSignal | undefined;
  /** Aborted at the deadline (reason: upstream_timeout) or with the caller's signal (its reason). */
  controller: AbortController;
  timer: NodeJS.Timeout | undefined;
}

function timeoutError(): OutboundError {
  return new OutboundError("upstream_timeout", "The upstream server took too long to respond.");
}

// What the person is told for the network failures that retrying will not fix, with what does fix them.
export const DNS_FAILED =
  "The host's name could not be resolved (DNS). Check the link; if every site fails, this server has no working DNS or no route to the internet, which its operator has to fix.";
export const REFUSED =
  "The connection was refused: nothing answers at that address, or the proxy this server sends requests through (OUTBOUND_PROXY) is down.";
export const TLS_FAILED =
  "A secure connection could not be made: the certificate was not accepted. If this server reaches the internet through an intercepting proxy, its operator must trust that proxy's CA (NODE_EXTRA_CA_CERTS).";

function errCode(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : "";
}

function mapError(err: unknown, ctx: CallContext): unknown {
  if (err instanceof OutboundError) return err;
  if (ctx.userSignal?.aborted) return ctx.userSignal.reason;
  if (ctx.timedOut) return timeoutError();
  const code = errCode(err);
  if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_NODATA") {
    return new OutboundError("upstream_dns_failed", DNS_FAILED, { cause: err });
  }
  if (code === "EAI_AGAIN") {
    // "Try again" from the resolver: retried, then said as what it is (no DNS answer) when retries run out.
    return retryableError(new OutboundError("upstream_dns_failed", DNS_FAILED, { cause: err }));
  }
  if (code === "ECONNREFUSED") {
    // Retried like any connection failure; the code says what it was when the retries run out.
    return retryableError(new OutboundError("upstream_refused", REFUSED, { cause: err }));
  }
  if (code === "UND_ERR_HEADERS_TIMEOUT") {
    return retryableError(
      new OutboundError("upstream_timeout", "The upstream server stopped responding.", { cause: err }),
    );
  }
  if (code === "UND_ERR_BODY_TIMEOUT") {
    return new OutboundError("upstream_timeout", "The upstream server stopped sending data.", { cause: err });
  }
  if (RETRYABLE_CODES.has(code)) {
    return retryableError(
      new OutboundError("upstream_failed", "The upstream server could not be reached.", { cause: err }),
    );
  }
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_INVALID_CERT)/.test(code)) {
    return new OutboundError("upstream_tls_failed", TLS_FAILED, { cause: err });
  }
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return new OutboundError("upstream_failed", "The request could not be sent.", { cause: err });
  }
  return new OutboundError("upstream_failed", "The request to the upstream server failed.", { cause: err });
}

function remaining(ctx: CallContext): number {
  return ctx.deadline - Date.now();
}

function throwIfDone(ctx: CallContext): void {
  if (ctx.userSignal?.aborted) throw ctx.userSignal.reason;
  if (ctx.timedOut || remaining(ctx) <= 0) throw timeoutError();
}

/** Waits for `ms`, cut short (with an error) by the deadline or the caller's signal. */
function sleep(ms: number, ctx: CallContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = ctx.controller.signal;
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function toHeaders(raw: Dispatcher.ResponseData["headers"]): Headers {
  const h = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined) continue;
      try {
        h.append(name, v);
      } catch {
        // A header value Headers will not hold: drop it rather than fail the whole response.
      }
    }
  }
  return h;
}

function headerValue(raw: Dispatcher.ResponseData["headers"], name: string): string | null {
  const v = raw[name];
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? null) : v;
}

/** Retry-After in ms (delta-seconds or HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** A zlib decoder for a single content-coding we asked for, else null (the body is passed as sent). */
function decoderFor(encoding: string | null): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** Closes a body (and its connection) we will not read; its "Request aborted" error is expected. */
function drop(body: Readable): void {
  body.on("error", () => undefined);
  if (!body.destroyed) body.destroy();
}

/** Drains a body we do not want so its connection goes back to the pool (a small one), else closes it. */
function discard(body: Dispatcher.ResponseData["body"]): void {
  body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

interface Resolved {
  opts: Required<Omit<FetchOptions, "body" | "signal" | "headers" | "method" | "maxBytes">>;
  maxBytes: number;
}

interface Answer {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

export function createOutbound(settings: OutboundSettings = {}): Outbound {
  const resolver = settings.resolver ?? defaultResolver;
  const allowPrivateFor = settings.allowPrivateFor;
  const proxy = parseProxy(settings.proxyUrl);
  // Node replaces its roots when `ca` is given, so extra CAs are added to the bundled ones.
  const ca: TlsCa =
    settings.extraCa === undefined ? undefined : [...tls.rootCertificates, ...[settings.extraCa].flat()];
  const guardOpts: CheckUrlOptions = { allowPrivateFor, allowedPorts: settings.allowedPorts };
  const poolConnectTimeoutMs = settings.defaults?.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;

  function check(raw: string, opts?: Pick<CheckUrlOptions, "allowedPorts" | "maxLength">): URL {
    return checkUrl(raw, { ...guardOpts, ...opts });
  }

  // -------------------------------------------------------------------------------------------------
  // Pools: one per (origin, checked IP); plain http through a proxy shares one pool per proxy.
  // -------------------------------------------------------------------------------------------------
  const pools = new Map<string, Pool>();

  function pool(key: string, origin: string, open: () => Promise<net.Socket>): Pool {
    const found = pools.get(key);
    if (found && !found.closed && !found.destroyed) {
      // Map order is insertion order: move to the end (most recently used).
      pools.delete(key);
      pools.set(key, found);
      return found;
    }
    const created = new Pool(origin, {
      connections: DEFAULTS.connectionsPerPool,
      keepAliveTimeout: DEFAULTS.keepAliveTimeoutMs,
      keepAliveMaxTimeout: 30_000,
      connect: (_opts, callback) => {
        open().then(
          (socket) => callback(null, socket),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    });
    pools.set(key, created);
    while (pools.size > DEFAULTS.maxPools) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
      pools.delete(oldestKey);
      oldest.close().catch(() => undefined);
    }
    return created;
  }

  /** The pool for a request to `url` at the checked `ip`, and the request-target to send. */
  function route(url: URL, ip: string): { dispatcher: Pool; path: string; viaProxy: ProxyConfig | null } {
    const port = effectivePort(url);
    const pathAndQuery = `${url.pathname}${url.search}`;
    if (proxy && url.protocol === "http:") {
      // Plain http through the proxy: absolute-form, naming the address we checked, never a name the
      // proxy would resolve itself.
      const dispatcher = pool(`proxy|${proxy.url.href}`, proxy.url.origin, () =>
        connectProxy(proxy, { ca, timeoutMs: poolConnectTimeoutMs }),
      );
      return { dispatcher, path: `http://${bracket(ip)}:${port}${pathAndQuery}`, viaProxy: proxy };
    }
    const host = normalizeHost(url.hostname);
    const servername = url.protocol === "https:" ? (net.isIP(host) !== 0 ? undefined : host) : false;
    const dispatcher = pool(`${url.origin}|${ip}`, url.origin, () =>
      openSocket(ip, port, servername, { proxy, ca, timeoutMs: poolConnectTimeoutMs }),
    );
    return { dispatcher, path: pathAndQuery, viaProxy: null };
  }

  /** One request/response exchange with one host; resolves at the response head. */
  async function exchange(hop: Hop, r: Resolved, ctx: CallContext): Promise<Answer> {
    const addresses = await resolveChecked(hop.url.hostname, {
      resolver,
      allowPrivateFor,
      timeoutMs: Math.min(r.opts.connectTimeoutMs, remaining(ctx)),
    });
    throwIfDone(ctx);
    const headers: Record<string, string> = { ...hop.headers, host: hop.url.host };
    let lastErr: unknown;
    for (const ip of addresses) {
      const { dispatcher, path, viaProxy } = route(hop.url, ip);
      const sent = viaProxy?.authorization ? { ...headers, "proxy-authorization": viaProxy.authorization } : headers;
      try {
        const res = await dispatcher.request({
          path,
          method: hop.method as Dispatcher.HttpMethod,
          headers: sent,
          body: hop.body === undefined ? undefined : Buffer.from(hop.body),
          signal: ctx.controller.signal,
          headersTimeout: r.opts.idleTimeoutMs,
          bodyTimeout: r.opts.idleTimeoutMs,
        });
        return { status: res.statusCode, headers: res.headers, body: res.body };
      } catch (err) {
        lastErr = err;
        throwIfDone(ctx);
        const mapped = mapError(err, ctx);
        // Another address only for a failure to connect, never for a request that may have been sent.
        if (!(mapped instanceof OutboundError && isRetryable(mapped) && errCode(err) !== "UND_ERR_SOCKET")) throw err;
      }
    }
    throw (
      lastErr ??
      retryableError(new OutboundError("upstream_timeout", "Connecting to the upstream server took too long."))
    );
  }

  /** Follows redirects and retries; resolves with the final response head. */
  async function run(
    input: string | URL,
    fo: FetchOptions,
    defaultMaxBytes: number,
  ): Promise<{ res: Answer; url: URL; redirects: number; ctx: CallContext; r: Resolved; release: () => void }> {
    const merged: FetchOptions = { ...settings.defaults, ...fo };
    const r: Resolved = {
      opts: {
        connectTimeoutMs: merged.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
        timeoutMs: merged.timeoutMs ?? DEFAULTS.timeoutMs,
        totalTimeoutMs: merged.totalTimeoutMs ?? DEFAULTS.streamTotalTimeoutMs,
        idleTimeoutMs: merged.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
        maxRedirects: merged.maxRedirects ?? DEFAULTS.maxRedirects,
        followRedirects: merged.followRedirects ?? true,
        retries: merged.retries ?? DEFAULTS.retries,
        retryBaseDelayMs: merged.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
        maxRetryDelayMs: merged.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
      },
      maxBytes: merged.maxBytes ?? defaultMaxBytes,
    };
    const method = (merged.method ?? DEFAULTS.method).toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...settings.defaults?.headers, ...fo.headers })) {
      const name = k.toLowerCase();
      if (!TRANSPORT_HEADERS.has(name)) headers[name] = v;
    }
    if (!("user-agent" in headers)) headers["user-agent"] = settings.userAgent ?? DEFAULTS.userAgent;
    // Bodies are always decoded here (capped after decoding), so what we accept is ours to say.
    headers["accept-encoding"] = ACCEPT_ENCODING;

    let hop: Hop = {
      url: check(typeof input === "string" ? input : input.href),
      method,
      headers,
      body: merged.body,
    };

    const controller = new AbortController();
    const started = Date.now();
    const ctx: CallContext = {
      started,
      deadline: started + r.opts.timeoutMs,
      timedOut: false,
      userSignal: merged.signal,
      controller,
      timer: undefined,
    };
    ctx.timer = setTimeout(() => {
      ctx.timedOut = true;
      controller.abort(timeoutError());
    }, r.opts.timeoutMs);
    const onUserAbort = () =>
      controller.abort(merged.signal?.reason instanceof Error ? merged.signal.reason : new Error("aborted"));
    if (merged.signal?.aborted) onUserAbort();
    else merged.signal?.addEventListener("abort", onUserAbort, { once: true });
    const release = () => {
      clearTimeout(ctx.timer);
      merged.signal?.removeEventListener("abort", onUserAbort);
    };

    let redirects = 0;
    let attempt = 0;
    try {
      for (;;) {
        throwIfDone(ctx);
        const idempotent = hop.method === "GET" || hop.method === "HEAD";
        let res: Answer;
        try {
          res = await exchange(hop, r, ctx);
        } catch (err) {
          const mapped = mapError(err, ctx);
          if (mapped instanceof OutboundError) mapped.host ??= hop.url.hostname;
          if (idempotent && isRetryable(mapped) && attempt < r.opts.retries) {
            const delay = Math.min(r.opts.retryBaseDelayMs * 2 ** attempt, r.opts.maxRetryDelayMs);
            if (delay < remaining(ctx)) {
              attempt++;
              await sleep(delay, ctx);
              continue;
            }
          }
          throw mapped;
        }

        const status = res.status;
        const location = headerValue(res.headers, "location");
        if (r.opts.followRedirects && REDIRECT_STATUSES.has(status) && location !== null && location !== "") {
          discard(res.body);
          if (redirects >= r.opts.maxRedirects) {
            throw new OutboundError(
              "too_many_redirects",
              `The upstream server redirected more than ${r.opts.maxRedirects} times.`,
            );
          }
          let next: URL;
          try {
            next = new URL(location, hop.url);
          } catch {
            throw new OutboundError("upstream_failed", "The upstream server sent an invalid redirect.");
          }
          next = check(next.href);
          redirects++;
          const nextHeaders = { ...hop.headers };
          if (next.origin !== hop.url.origin) for (const h of CREDENTIAL_HEADERS) delete nextHeaders[h];
          const toGet =
            status === 303 ? hop.method !== "HEAD" : (status === 301 || status === 302) && hop.method === "POST";
          if (toGet) delete nextHeaders["content-type"];
          hop = {
            url: next,
            method: toGet ? "GET" : hop.method,
            headers: nextHeaders,
            body: toGet ? undefined : hop.body,
          };
          continue;
        }

        if (idempotent && RETRY_STATUSES.has(status) && attempt < r.opts.retries) {
          const wanted =
            parseRetryAfter(headerValue(res.headers, "retry-after")) ?? r.opts.retryBaseDelayMs * 2 ** attempt;
          const delay = Math.min(wanted, r.opts.maxRetryDelayMs);
          if (delay < remaining(ctx)) {
            discard(res.body);
            attempt++;
            await sleep(delay, ctx);
            continue;
          }
        }
        const declared = Number(headerValue(res.headers, "content-length"));
        if (hop.method !== "HEAD" && Number.isFinite(declared) && declared > r.maxBytes) {
          drop(res.body);
          throw tooLarge(r.maxBytes);
        }
        return { res, url: hop.url, redirects, ctx, r, release };
      }
    } catch (err) {
      release();
      throw mapError(err, ctx);
    }
  }

  /**
   * The body as the caller reads it: decoded when it came compressed, capped at `maxBytes` (decoded
   * bytes: a small gzip bomb cannot get past it), failures reported as OutboundError.
   */
  function capped(
    res: Answer,
    method: string,
    maxBytes: number,
    ctx: CallContext,
    onDone: () => void,
  ): { body: Readable; headers: Headers } {
    const headers = toHeaders(res.headers);
    const decoder =
      method === "HEAD" || res.status === 204 || res.status === 304
        ? null
        : decoderFor(headers.get("content-encoding"));
    if (decoder) {
      headers.delete("content-encoding");
      headers.delete("content-length");
      res.body.on("error", (err) => decoder.destroy(err));
      res.body.pipe(decoder);
    }
    const stream: Readable = decoder ?? res.body;
    let received = 0;
    let ended = false;
    const signal = ctx.controller.signal;
    const out = new Readable({
      read() {
        stream.resume();
      },
      destroy(err, cb) {
        finish();
        drop(res.body);
        if (decoder) drop(decoder);
        cb(err);
      },
    });
    const onAbort = () => out.destroy(mapError(signal.reason, ctx) as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      signal.removeEventListener("abort", onAbort);
      onDone();
    };

    stream.on("data", (chunk: Buffer) => {
      if (out.destroyed) return;
      received += chunk.length;
      if (received > maxBytes) {
        out.destroy(tooLarge(maxBytes));
        return;
      }
      if (!out.push(chunk)) stream.pause();
    });
    stream.once("end", () => {
      ended = true;
      finish();
      out.push(null);
    });
    stream.on("error", (err) => {
      if (!out.destroyed) {
        const mapped =
          decoder && errCode(err).startsWith("Z_")
            ? new OutboundError("upstream_failed", "The upstream server sent a corrupt compressed body.", {
                cause: err,
              })
            : mapError(err, ctx);
        out.destroy(mapped as Error);
      }
    });
    stream.once("close", () => {
      if (!ended && !out.destroyed) {
        out.destroy(
          ctx.timedOut
            ? timeoutError()
            : new OutboundError("upstream_failed", "The upstream server closed the connection early."),
        );
      }
    });
    return { body: out, headers };
  }

  async function safeFetchStream(url: string | URL, fo: FetchOptions = {}): Promise<StreamResponse> {
    const { res, url: finalUrl, redirects, ctx, r, release } = await run(url, fo, DEFAULTS.maxBytesStream);
    // Streams outlive the call deadline: from here on they are bounded by idle time (undici's
    // bodyTimeout), size, the caller's signal, and the total deadline (`totalTimeoutMs`).
    clearTimeout(ctx.timer);
    ctx.timer = setTimeout(
      () => {
        ctx.timedOut = true;
        ctx.controller.abort(
          new OutboundError("upstream_timeout", "The upstream server took too long to send the whole answer."),
        );
      },
      Math.max(0, ctx.started + r.opts.totalTimeoutMs - Date.now()),
    );
    ctx.timer.unref();
    const { body, headers } = capped(res, fo.method?.toUpperCase() ?? "GET", r.maxBytes, ctx, release);
    return {
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      headers,
      url: finalUrl.href,
      redirects,
      body,
    };
  }

  async function safeFetchBuffer(url: string | URL, fo: FetchOptions = {}): Promise<BufferResponse> {
    const { res, url: finalUrl, redirects, ctx, r, release } = await run(url, fo, DEFAULTS.maxBytesBuffer);
    const { body, headers } = capped(res, fo.method?.toUpperCase() ?? "GET", r.maxBytes, ctx, release);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (err) {
      throw mapError(err, ctx);
    } finally {
      release();
    }
    // undici hands the connection back to its pool on a later turn of the event loop; a caller that
    // sends its next request at once would otherwise find it busy and open another one.
    await new Promise((resolve) => setImmediate(resolve));
    return {
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      headers,
      url: finalUrl.href,
      redirects,
      body: Buffer.concat(chunks),
    };
  }

  // -------------------------------------------------------------------------------------------------
  // The forward proxy for child processes
  // -------------------------------------------------------------------------------------------------
  let forward: Promise<ForwardProxy> | undefined;

  function toolProxyUrl(): Promise<string> {
    if (!forward) {
      const starting = startForwardProxy({
        resolver,
        allowPrivateFor,
        allowedPorts: settings.allowedPorts,
        proxy,
        ca,
        connectTimeoutMs: poolConnectTimeoutMs,
      });
      // A failed start is not remembered: the next call tries again.
      starting.catch(() => {
        if (forward === starting) forward = undefined;
      });
      forward = starting;
    }
    return forward.then((p) => p.url);
  }

  async function close(): Promise<void> {
    const started = forward;
    forward = undefined;
    const all = [...pools.values()];
    pools.clear();
    await Promise.all([
      ...all.map((p) => p.close().catch(() => undefined)),
      started?.then((p) => p.close()).catch(() => undefined),
    ]);
  }

  return { checkUrl: check, safeFetchBuffer, safeFetchStream, toolProxyUrl, close };
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError(
    "response_too_large",
    `The file at that URL is larger than the ${formatBytes(maxBytes)} limit.`,
  );
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return `${n} bytes`;
}
