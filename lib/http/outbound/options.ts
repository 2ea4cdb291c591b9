// What an outbound instance is given and answers: its settings, each call's options with their defaults, and
// the responses.
import type { Readable } from "node:stream";

import type { Resolver } from "./connect";
import type { CheckUrlOptions } from "./guard";

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

export const DEFAULTS = {
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
