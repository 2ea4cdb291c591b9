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
 * This file is the call itself: every hop and attempt of one request, in order. Each rule it follows is a module
 * of its own, read beside it: the URL and address rules (guard.ts), the checked connection (connect.ts), the
 * pools (pools.ts), the proxy tunnel (forward-proxy.ts), redirects (redirects.ts), retries (retries.ts), the
 * deadline (deadline.ts), error mapping (map-error.ts), the body reader (body.ts), options and defaults
 * (options.ts), the errors (errors.ts).
 */
import tls from "node:tls";

import type { Dispatcher } from "undici";

import { ACCEPT_ENCODING, type Answer, cappedBody, discard, drop, headerValue } from "./body";
import { defaultResolver, isRetryable, parseProxy, resolveChecked, retryableError, type TlsCa } from "./connect";
import { type CallContext, extendDeadline, remaining, sleep, startCall, throwIfDone } from "./deadline";
import { OutboundError } from "./errors";
import { startForwardProxy, type ForwardProxy } from "./forward-proxy";
import { type CheckUrlOptions, checkUrl } from "./guard";
import { errCode, mapError, tooLarge } from "./map-error";
import {
  DEFAULTS,
  type BufferResponse,
  type FetchOptions,
  type Outbound,
  type OutboundSettings,
  type StreamResponse,
} from "./options";
import { createPools } from "./pools";
import { nextHop, REDIRECT_STATUSES, type Hop } from "./redirects";
import { RETRY_STATUSES, retryDelay } from "./retries";

export type { Resolver } from "./connect";
export { DNS_FAILED, REFUSED, TLS_FAILED } from "./map-error";
export type {
  BufferResponse,
  FetchOptions,
  Outbound,
  OutboundResponse,
  OutboundSettings,
  StreamResponse,
} from "./options";
export { parseRetryAfter } from "./retries";

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

interface Resolved {
  opts: Required<Omit<FetchOptions, "body" | "signal" | "headers" | "method" | "maxBytes">>;
  maxBytes: number;
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
  const pools = createPools({ proxy, ca, connectTimeoutMs: poolConnectTimeoutMs });

  function check(raw: string, opts?: Pick<CheckUrlOptions, "allowedPorts" | "maxLength">): URL {
    return checkUrl(raw, { ...guardOpts, ...opts });
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
      const { dispatcher, path, viaProxy } = pools.route(hop.url, ip);
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

    const { ctx, release } = startCall(r.opts.timeoutMs, merged.signal);

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
            const delay = retryDelay(attempt, r.opts);
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
          hop = nextHop(hop, status, location, redirects, r.opts.maxRedirects, check);
          redirects++;
          continue;
        }

        if (idempotent && RETRY_STATUSES.has(status) && attempt < r.opts.retries) {
          const delay = retryDelay(attempt, r.opts, headerValue(res.headers, "retry-after"));
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

  async function safeFetchStream(url: string | URL, fo: FetchOptions = {}): Promise<StreamResponse> {
    const { res, url: finalUrl, redirects, ctx, r, release } = await run(url, fo, DEFAULTS.maxBytesStream);
    extendDeadline(ctx, r.opts.totalTimeoutMs);
    const { body, headers } = cappedBody(res, fo.method?.toUpperCase() ?? "GET", r.maxBytes, ctx, release);
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
    const { body, headers } = cappedBody(res, fo.method?.toUpperCase() ?? "GET", r.maxBytes, ctx, release);
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
    await Promise.all([pools.closeAll(), started?.then((p) => p.close()).catch(() => undefined)]);
  }

  return { checkUrl: check, safeFetchBuffer, safeFetchStream, toolProxyUrl, close };
}
