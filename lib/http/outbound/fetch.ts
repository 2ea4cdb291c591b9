/**
 * SSRF-safe HTTP client: every request to a user-supplied or platform URL goes through here.
 *
 * How it stays safe:
 * - every URL (the first and each redirect hop) goes through `checkUrl` (scheme, credentials, ports,
 *   literal internal hosts and names);
 * - the host name is resolved by us, every resolved address is checked, and the socket is opened to
 *   exactly the checked address (`createConnection` hands node:http a socket we connected ourselves),
 *   so there is no second DNS lookup a rebinding attacker could answer differently;
 * - with a proxy configured, the target is still resolved and checked here and the proxy is asked
 *   for the checked IP (CONNECT ip:port for https, absolute-form http://ip:port/... for http), so the
 *   proxy's own DNS never decides where we go;
 * - redirects are followed by hand (default at most 5), timeouts bound connecting and the whole call,
 *   and bodies are capped at `maxBytes`.
 *
 * Built on node:http / node:net / node:tls: the `undici` package is not installed here (Node's
 * global fetch bundles it privately, without a public way to set a per-connection lookup).
 * Settings come in as parameters (lib/env.ts passes them); nothing here reads environment variables.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import net from "node:net";
import { Readable } from "node:stream";
import tls from "node:tls";

import { OutboundError } from "./errors";
import { type CheckUrlOptions, checkHost, checkResolvedAddresses, checkUrl, effectivePort, normaliseHost } from "./guard";

export type Resolver = (host: string) => Promise<string[]>;

export interface OutboundSettings {
  /**
   * Test hook: hosts (normalised: lower case, no brackets, no trailing dot) that may be internal,
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
}

const DEFAULTS = {
  method: "GET",
  maxBytesBuffer: 10 * 1024 * 1024,
  maxBytesStream: 512 * 1024 * 1024,
  connectTimeoutMs: 10_000,
  timeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  maxRedirects: 5,
  retries: 2,
  retryBaseDelayMs: 300,
  maxRetryDelayMs: 5_000,
  userAgent: "Verbatim/0.1",
};

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
]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** Errors worth another attempt (network trouble), tracked without widening OutboundError's API. */
const retryable = new WeakSet<OutboundError>();

function retryableError(err: OutboundError): OutboundError {
  retryable.add(err);
  return err;
}

const defaultResolver: Resolver = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

type TlsCa = Array<string | Buffer> | undefined;

interface ProxyConfig {
  url: URL;
  authorization: string | null;
}

function parseProxy(proxyUrl: string | undefined): ProxyConfig | null {
  if (!proxyUrl) return null;
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new Error("Outbound proxy URL is not a valid URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error("Outbound proxy URL must be http:// or https://.");
  }
  const authorization =
    url.username !== ""
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`
      : null;
  return { url, authorization };
}

/** Per-call state shared by every hop and attempt. */
interface CallContext {
  deadline: number;
  timedOut: boolean;
  userSignal: AbortSignal | undefined;
  /** Whatever is currently in flight, so the deadline can tear it down. */
  inFlight: Set<{ destroy(err?: Error): unknown }>;
  timer: NodeJS.Timeout | undefined;
}

function timeoutError(): OutboundError {
  return new OutboundError("upstream_timeout", "The upstream server took too long to respond.");
}

function bracket(ip: string): string {
  return net.isIPv6(ip) ? `[${ip}]` : ip;
}

function errCode(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : "";
}

function mapError(err: unknown, ctx: CallContext): unknown {
  if (err instanceof OutboundError) return err;
  if (ctx.userSignal?.aborted) return ctx.userSignal.reason;
  if (ctx.timedOut) return timeoutError();
  const code = errCode(err);
  if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_NODATA") {
    return new OutboundError("upstream_failed", "The host in that URL could not be resolved.", { cause: err });
  }
  if (RETRYABLE_CODES.has(code)) {
    return retryableError(new OutboundError("upstream_failed", "The upstream server could not be reached.", { cause: err }));
  }
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_INVALID_CERT)/.test(code)) {
    return new OutboundError("upstream_failed", "A secure connection to the upstream server could not be made.", { cause: err });
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
    const entry = {
      destroy: (err?: Error) => {
        clearTimeout(t);
        ctx.inFlight.delete(entry);
        reject(err ?? timeoutError());
      },
    };
    const t = setTimeout(() => {
      ctx.inFlight.delete(entry);
      resolve();
    }, ms);
    ctx.inFlight.add(entry);
  });
}

/** Resolves with the socket once `event` fires; rejects on error, timeout, or deadline. */
function awaitSocket<S extends net.Socket>(socket: S, event: "connect" | "secureConnect", timeoutMs: number, ctx: CallContext): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const entry = { destroy: (err?: Error) => socket.destroy(err ?? timeoutError()) };
    ctx.inFlight.add(entry);
    const timer = setTimeout(() => {
      socket.destroy(retryableError(new OutboundError("upstream_timeout", "Connecting to the upstream server took too long.")));
    }, Math.max(1, timeoutMs));
    const done = () => {
      clearTimeout(timer);
      ctx.inFlight.delete(entry);
      socket.off("error", onError);
      socket.off(event, onOk);
      socket.off("close", onClose);
    };
    const onOk = () => {
      done();
      resolve(socket);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      done();
      reject(Object.assign(new Error("socket closed while connecting"), { code: "ECONNRESET" }));
    };
    socket.once(event, onOk);
    socket.once("error", onError);
    socket.once("close", onClose);
  });
}

/** Asks the proxy to open a tunnel to ip:port; resolves with the raw tunnel socket. */
function connectTunnel(proxySocket: net.Socket, ip: string, port: number, proxy: ProxyConfig, timeoutMs: number, ctx: CallContext): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const target = `${bracket(ip)}:${port}`;
    let head = Buffer.alloc(0);
    const timer = setTimeout(() => {
      proxySocket.destroy();
      reject(retryableError(new OutboundError("upstream_timeout", "The proxy took too long to open a tunnel.")));
    }, Math.max(1, timeoutMs));
    const entry = { destroy: (err?: Error) => proxySocket.destroy(err ?? timeoutError()) };
    ctx.inFlight.add(entry);
    const finish = () => {
      clearTimeout(timer);
      ctx.inFlight.delete(entry);
      proxySocket.off("readable", onData);
      proxySocket.off("error", onError);
      proxySocket.off("close", onClose);
    };
    const onData = () => {
      let chunk: Buffer | null;
      while ((chunk = proxySocket.read() as Buffer | null) !== null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) {
          if (head.length > 16 * 1024) {
            finish();
            proxySocket.destroy();
            reject(new OutboundError("upstream_failed", "The proxy sent an invalid response."));
            return;
          }
          continue;
        }
        finish();
        const statusLine = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
        if (status !== 200) {
          proxySocket.destroy();
          reject(new OutboundError("upstream_failed", `The proxy refused the connection (status ${status || "unknown"}).`));
          return;
        }
        const rest = head.subarray(end + 4);
        if (rest.length > 0) proxySocket.unshift(rest);
        resolve(proxySocket);
        return;
      }
    };
    const onError = (err: Error) => {
      finish();
      reject(err);
    };
    const onClose = () => {
      finish();
      reject(Object.assign(new Error("proxy closed the connection"), { code: "ECONNRESET" }));
    };
    proxySocket.on("readable", onData);
    proxySocket.once("error", onError);
    proxySocket.once("close", onClose);
    const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
    if (proxy.authorization) lines.push(`Proxy-Authorization: ${proxy.authorization}`);
    proxySocket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}

async function connectProxy(proxy: ProxyConfig, timeoutMs: number, ctx: CallContext, ca: TlsCa): Promise<net.Socket> {
  const host = normaliseHost(proxy.url.hostname);
  const port = effectivePort(proxy.url);
  if (proxy.url.protocol === "https:") {
    const s = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ["http/1.1"], ca });
    return awaitSocket(s, "secureConnect", timeoutMs, ctx);
  }
  return awaitSocket(net.connect({ host, port }), "connect", timeoutMs, ctx);
}

/**
 * Opens a socket that speaks to `ip` (already checked) for `url`: plain TCP or TLS (SNI and
 * certificate checked against the URL's host name), directly or through the proxy.
 */
async function openSocket(url: URL, ip: string, proxy: ProxyConfig | null, timeoutMs: number, ctx: CallContext, ca: TlsCa): Promise<net.Socket> {
  const host = normaliseHost(url.hostname);
  const port = effectivePort(url);
  const started = Date.now();
  const left = () => Math.min(timeoutMs - (Date.now() - started), remaining(ctx));
  const servername = net.isIP(host) ? undefined : host;

  if (!proxy) {
    if (url.protocol === "https:") {
      return awaitSocket(tls.connect({ host: ip, port, servername, ALPNProtocols: ["http/1.1"], ca }), "secureConnect", left(), ctx);
    }
    return awaitSocket(net.connect({ host: ip, port }), "connect", left(), ctx);
  }
  const proxySocket = await connectProxy(proxy, left(), ctx, ca);
  if (url.protocol !== "https:") return proxySocket; // plain http: absolute-form request to the proxy
  const tunnel = await connectTunnel(proxySocket, ip, port, proxy, left(), ctx);
  const secure = tls.connect({ socket: tunnel, servername, ALPNProtocols: ["http/1.1"], ca });
  // Closing the TLS layer does not always close the tunnel under it.
  secure.once("close", () => tunnel.destroy());
  return awaitSocket(secure, "secureConnect", left(), ctx);
}

function toHeaders(res: IncomingMessage): Headers {
  const h = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      h.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header value Headers will not hold: drop it rather than fail the whole response.
    }
  }
  return h;
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

export function createOutbound(settings: OutboundSettings = {}): Outbound {
  const resolver = settings.resolver ?? defaultResolver;
  const allowPrivateFor = settings.allowPrivateFor;
  const proxy = parseProxy(settings.proxyUrl);
  // Node replaces its roots when `ca` is given, so extra CAs are added to the bundled ones.
  const ca: TlsCa = settings.extraCa === undefined ? undefined : [...tls.rootCertificates, ...[settings.extraCa].flat()];
  const guardOpts: CheckUrlOptions = { allowPrivateFor, allowedPorts: settings.allowedPorts };

  function check(raw: string, opts?: Pick<CheckUrlOptions, "allowedPorts" | "maxLength">): URL {
    return checkUrl(raw, { ...guardOpts, ...opts });
  }

  /** Resolves the host (unless it is an IP literal) and checks every address. */
  async function resolveChecked(url: URL, timeoutMs: number, ctx: CallContext): Promise<string[]> {
    const host = normaliseHost(url.hostname);
    checkHost(host, { allowPrivateFor });
    if (net.isIP(host) !== 0) {
      checkResolvedAddresses(host, [host], { allowPrivateFor });
      return [host];
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const addresses = await Promise.race([
        resolver(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(retryableError(new OutboundError("upstream_timeout", "Resolving the upstream host took too long."))),
            Math.max(1, Math.min(timeoutMs, remaining(ctx))),
          );
        }),
      ]);
      checkResolvedAddresses(host, addresses, { allowPrivateFor });
      return addresses;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request/response exchange with one host; resolves at the response head. */
  async function exchange(hop: Hop, r: Resolved, ctx: CallContext): Promise<IncomingMessage> {
    const connectStarted = Date.now();
    const addresses = await resolveChecked(hop.url, r.opts.connectTimeoutMs, ctx);
    throwIfDone(ctx);

    let socket: net.Socket | undefined;
    let ip = "";
    let lastErr: unknown;
    for (const candidate of addresses) {
      const left = r.opts.connectTimeoutMs - (Date.now() - connectStarted);
      if (left <= 0) break;
      try {
        socket = await openSocket(hop.url, candidate, proxy, left, ctx, ca);
        ip = candidate;
        break;
      } catch (err) {
        lastErr = err;
        throwIfDone(ctx);
        if (err instanceof OutboundError && !retryable.has(err)) throw err;
      }
    }
    if (!socket) {
      throw lastErr ?? retryableError(new OutboundError("upstream_timeout", "Connecting to the upstream server took too long."));
    }
    const connected = socket;
    try {
      throwIfDone(ctx);
    } catch (err) {
      connected.destroy();
      throw err;
    }

    const headers: Record<string, string> = { ...hop.headers, host: hop.url.host };
    let path = `${hop.url.pathname}${hop.url.search}`;
    if (proxy && hop.url.protocol === "http:") {
      // Ask the proxy for the address we checked, never for a name it would resolve itself.
      path = `http://${bracket(ip)}:${effectivePort(hop.url)}${path}`;
      if (proxy.authorization) headers["proxy-authorization"] = proxy.authorization;
    }
    if (hop.body !== undefined) headers["content-length"] = String(Buffer.byteLength(hop.body));

    return new Promise<IncomingMessage>((resolve, reject) => {
      let req: http.ClientRequest;
      try {
        req = http.request({
          method: hop.method,
          path,
          headers,
          createConnection: () => connected,
          timeout: r.opts.idleTimeoutMs,
        });
      } catch (err) {
        // e.g. a header value node:http will not send
        connected.destroy();
        reject(new OutboundError("upstream_failed", "The request could not be sent.", { cause: err }));
        return;
      }
      const entry = { destroy: (err?: Error) => req.destroy(err ?? timeoutError()) };
      ctx.inFlight.add(entry);
      req.once("timeout", () => {
        req.destroy(retryableError(new OutboundError("upstream_timeout", "The upstream server stopped responding.")));
      });
      req.once("error", (err) => {
        ctx.inFlight.delete(entry);
        reject(err);
      });
      req.once("response", (res) => {
        ctx.inFlight.delete(entry);
        resolve(res);
      });
      req.end(hop.body);
    });
  }

  /** Follows redirects and retries; resolves with the final response head. */
  async function run(
    input: string | URL,
    fo: FetchOptions,
    defaultMaxBytes: number,
  ): Promise<{ res: IncomingMessage; url: URL; method: string; redirects: number; ctx: CallContext; r: Resolved }> {
    const merged: FetchOptions = { ...settings.defaults, ...fo };
    const r: Resolved = {
      opts: {
        connectTimeoutMs: merged.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
        timeoutMs: merged.timeoutMs ?? DEFAULTS.timeoutMs,
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
    for (const [k, v] of Object.entries({ ...settings.defaults?.headers, ...fo.headers })) headers[k.toLowerCase()] = v;
    if (!("user-agent" in headers)) headers["user-agent"] = settings.userAgent ?? DEFAULTS.userAgent;
    if (!("accept-encoding" in headers)) headers["accept-encoding"] = "identity";
    delete headers.host;

    let hop: Hop = {
      url: check(typeof input === "string" ? input : input.href),
      method,
      headers,
      body: merged.body,
    };

    const ctx: CallContext = {
      deadline: Date.now() + r.opts.timeoutMs,
      timedOut: false,
      userSignal: merged.signal,
      inFlight: new Set(),
      timer: undefined,
    };
    const abortAll = (err: Error) => {
      for (const f of [...ctx.inFlight]) f.destroy(err);
    };
    ctx.timer = setTimeout(() => {
      ctx.timedOut = true;
      abortAll(timeoutError());
    }, r.opts.timeoutMs);
    const onUserAbort = () => abortAll(merged.signal?.reason instanceof Error ? merged.signal.reason : new Error("aborted"));
    merged.signal?.addEventListener("abort", onUserAbort, { once: true });
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
        let res: IncomingMessage;
        try {
          res = await exchange(hop, r, ctx);
        } catch (err) {
          const mapped = mapError(err, ctx);
          if (idempotent && mapped instanceof OutboundError && retryable.has(mapped) && attempt < r.opts.retries) {
            const delay = Math.min(r.opts.retryBaseDelayMs * 2 ** attempt, r.opts.maxRetryDelayMs);
            if (delay < remaining(ctx)) {
              attempt++;
              await sleep(delay, ctx);
              continue;
            }
          }
          throw mapped;
        }

        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (r.opts.followRedirects && REDIRECT_STATUSES.has(status) && typeof location === "string" && location !== "") {
          res.resume();
          res.destroy();
          if (redirects >= r.opts.maxRedirects) {
            throw new OutboundError("too_many_redirects", `The upstream server redirected more than ${r.opts.maxRedirects} times.`);
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
          const toGet = status === 303 ? hop.method !== "HEAD" : (status === 301 || status === 302) && hop.method === "POST";
          if (toGet) {
            delete nextHeaders["content-type"];
            delete nextHeaders["content-length"];
          }
          hop = { url: next, method: toGet ? "GET" : hop.method, headers: nextHeaders, body: toGet ? undefined : hop.body };
          continue;
        }

        if (idempotent && RETRY_STATUSES.has(status) && attempt < r.opts.retries) {
          const wanted = parseRetryAfter(res.headers["retry-after"] ?? null) ?? r.opts.retryBaseDelayMs * 2 ** attempt;
          const delay = Math.min(wanted, r.opts.maxRetryDelayMs);
          if (delay < remaining(ctx)) {
            res.resume();
            res.destroy();
            attempt++;
            await sleep(delay, ctx);
            continue;
          }
        }
        const declared = Number(res.headers["content-length"]);
        if (hop.method !== "HEAD" && Number.isFinite(declared) && declared > r.maxBytes) {
          res.destroy();
          throw tooLarge(r.maxBytes);
        }
        return { res, url: hop.url, method: hop.method, redirects, ctx, r };
      }
    } catch (err) {
      release();
      throw mapError(err, ctx);
    } finally {
      // On success the caller keeps the deadline for the body (buffer) or drops it (stream).
      merged.signal?.removeEventListener("abort", onUserAbort);
    }
  }

  /** Wraps a response in a byte-capped Readable that reports failures as OutboundError. */
  function capped(res: IncomingMessage, maxBytes: number, ctx: CallContext, onDone: () => void, userSignal: AbortSignal | undefined): Readable {
    let received = 0;
    let ended = false;
    const out = new Readable({
      read() {
        res.resume();
      },
      destroy(err, cb) {
        onDone();
        ctx.inFlight.delete(entry);
        userSignal?.removeEventListener("abort", onAbort);
        if (!res.destroyed) res.destroy();
        cb(err);
      },
    });
    const entry = { destroy: (err?: Error) => out.destroy(mapError(err ?? timeoutError(), ctx) as Error) };
    ctx.inFlight.add(entry);
    const onAbort = () => out.destroy(userSignal?.reason instanceof Error ? userSignal.reason : new Error("aborted"));
    userSignal?.addEventListener("abort", onAbort, { once: true });

    res.on("data", (chunk: Buffer) => {
      if (out.destroyed) return;
      received += chunk.length;
      if (received > maxBytes) {
        out.destroy(tooLarge(maxBytes));
        return;
      }
      if (!out.push(chunk)) res.pause();
    });
    res.once("end", () => {
      ended = true;
      // Connections are never reused: close this one (and, through a proxy, the tunnel under it).
      res.socket?.destroy();
      onDone();
      ctx.inFlight.delete(entry);
      userSignal?.removeEventListener("abort", onAbort);
      out.push(null);
    });
    res.once("error", (err) => {
      if (!out.destroyed) out.destroy(mapError(err, ctx) as Error);
    });
    res.once("close", () => {
      if (!ended && !out.destroyed) {
        out.destroy(ctx.timedOut ? timeoutError() : new OutboundError("upstream_failed", "The upstream server closed the connection early."));
      }
    });
    res.socket?.setTimeout(0);
    return out;
  }

  async function safeFetchStream(url: string | URL, fo: FetchOptions = {}): Promise<StreamResponse> {
    const { res, url: finalUrl, redirects, ctx, r } = await run(url, fo, DEFAULTS.maxBytesStream);
    // Streams outlive the call deadline: from here on they are bounded by idle time and size.
    clearTimeout(ctx.timer);
    const body = capped(res, r.maxBytes, ctx, () => undefined, fo.signal ?? settings.defaults?.signal);
    res.socket?.setTimeout(r.opts.idleTimeoutMs, () => {
      body.destroy(new OutboundError("upstream_timeout", "The upstream server stopped sending data."));
    });
    return { status: res.statusCode ?? 0, ok: isOk(res), headers: toHeaders(res), url: finalUrl.href, redirects, body };
  }

  async function safeFetchBuffer(url: string | URL, fo: FetchOptions = {}): Promise<BufferResponse> {
    const { res, url: finalUrl, redirects, ctx, r } = await run(url, fo, DEFAULTS.maxBytesBuffer);
    const body = capped(res, r.maxBytes, ctx, () => clearTimeout(ctx.timer), fo.signal ?? settings.defaults?.signal);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (err) {
      throw mapError(err, ctx);
    } finally {
      clearTimeout(ctx.timer);
    }
    return { status: res.statusCode ?? 0, ok: isOk(res), headers: toHeaders(res), url: finalUrl.href, redirects, body: Buffer.concat(chunks) };
  }

  return { checkUrl: check, safeFetchBuffer, safeFetchStream };
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError("response_too_large", `The file at that URL is larger than the ${formatBytes(maxBytes)} limit.`);
}

function isOk(res: IncomingMessage): boolean {
  const s = res.statusCode ?? 0;
  return s >= 200 && s < 300;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return `${n} bytes`;
}
