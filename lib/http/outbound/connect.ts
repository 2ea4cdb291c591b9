/**
 * The guarded connection: the one place a socket to the outside is opened, for the app's own fetches
 * (fetch.ts, through undici) and for the forward proxy yt-dlp goes through (forward-proxy.ts).
 *
 * - `resolveChecked` resolves a host name ourselves and checks EVERY address it resolves to (guard.ts);
 * - `openSocket` connects to exactly one of those checked addresses: plain TCP or TLS (SNI and the
 *   certificate checked against the host NAME), directly or through the upstream proxy with
 *   `CONNECT <checked ip>:<port>`, so neither a second DNS lookup nor the proxy's own DNS decides where
 *   the bytes go.
 *
 * Pure policy + node:net/node:tls; settings come in as parameters.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import net from "node:net";
import tls from "node:tls";

import { OutboundError } from "./errors";
import { checkHost, checkResolvedAddresses, effectivePort, normalizeHost } from "./guard";

export type Resolver = (host: string) => Promise<string[]>;
export type TlsCa = Array<string | Buffer> | undefined;

export const defaultResolver: Resolver = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** Errors worth another attempt (network trouble), tracked without widening OutboundError's API. */
const retryable = new WeakSet<OutboundError>();

export function retryableError(err: OutboundError): OutboundError {
  retryable.add(err);
  return err;
}

export function isRetryable(err: unknown): boolean {
  return err instanceof OutboundError && retryable.has(err);
}

export interface ProxyConfig {
  url: URL;
  authorization: string | null;
}

export function parseProxy(proxyUrl: string | undefined): ProxyConfig | null {
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

export function bracket(ip: string): string {
  return net.isIPv6(ip) ? `[${ip}]` : ip;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

export interface ResolveOptions {
  resolver: Resolver;
  allowPrivateFor?: (host: string) => boolean;
  timeoutMs: number;
}

/** Resolves `host` (unless it is an IP literal) and checks every address; throws OutboundError. */
export async function resolveChecked(rawHost: string, opts: ResolveOptions): Promise<string[]> {
  const host = normalizeHost(rawHost);
  const guard = { allowPrivateFor: opts.allowPrivateFor };
  checkHost(host, guard);
  if (net.isIP(host) !== 0) {
    checkResolvedAddresses(host, [host], guard);
    return [host];
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      opts.resolver(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(retryableError(new OutboundError("upstream_timeout", "Resolving the upstream host took too long."))),
          Math.max(1, opts.timeoutMs),
        );
      }),
    ]);
    checkResolvedAddresses(host, addresses, guard);
    return addresses;
  } finally {
    clearTimeout(timer);
  }
}

export interface SocketOptions {
  proxy: ProxyConfig | null;
  ca: TlsCa;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Resolves with the socket once `event` fires; rejects on error, close, timeout or abort. */
function awaitSocket<S extends net.Socket>(
  socket: S,
  event: "connect" | "secureConnect",
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        socket.destroy(
          retryableError(new OutboundError("upstream_timeout", "Connecting to the upstream server took too long.")),
        );
      },
      Math.max(1, timeoutMs),
    );
    const onAbort = () => socket.destroy(abortReason(signal as AbortSignal));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
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
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Asks the proxy to open a tunnel to ip:port; resolves with the raw tunnel socket. */
function connectTunnel(
  proxySocket: net.Socket,
  ip: string,
  port: number,
  proxy: ProxyConfig,
  timeoutMs: number,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const target = `${bracket(ip)}:${port}`;
    let head = Buffer.alloc(0);
    const timer = setTimeout(
      () => {
        proxySocket.destroy();
        reject(retryableError(new OutboundError("upstream_timeout", "The proxy took too long to open a tunnel.")));
      },
      Math.max(1, timeoutMs),
    );
    const finish = () => {
      clearTimeout(timer);
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
          reject(
            new OutboundError("upstream_failed", `The proxy refused the connection (status ${status || "unknown"}).`),
          );
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

/** A socket to the proxy itself (the proxy is configuration, not user input: not checked). */
export function connectProxy(
  proxy: ProxyConfig,
  opts: Pick<SocketOptions, "ca" | "timeoutMs" | "signal">,
): Promise<net.Socket> {
  const host = normalizeHost(proxy.url.hostname);
  const port = effectivePort(proxy.url);
  if (proxy.url.protocol === "https:") {
    const s = tls.connect({
      host,
      port,
      servername: net.isIP(host) ? undefined : host,
      ALPNProtocols: ["http/1.1"],
      ca: opts.ca,
    });
    return awaitSocket(s, "secureConnect", opts.timeoutMs, opts.signal);
  }
  return awaitSocket(net.connect({ host, port }), "connect", opts.timeoutMs, opts.signal);
}

/**
 * Opens a socket that speaks to `ip` (already checked) on `port`: raw TCP (`servername === false`), or
 * TLS with SNI and the certificate checked against `servername` (undefined for an IP-literal host);
 * directly, or through the proxy's CONNECT tunnel to the checked IP.
 */
export async function openSocket(
  ip: string,
  port: number,
  servername: string | undefined | false,
  opts: SocketOptions,
): Promise<net.Socket> {
  const started = Date.now();
  const left = () => opts.timeoutMs - (Date.now() - started);
  let raw: net.Socket;
  if (!opts.proxy) {
    if (servername !== false) {
      return awaitSocket(
        tls.connect({ host: ip, port, servername, ALPNProtocols: ["http/1.1"], ca: opts.ca }),
        "secureConnect",
        left(),
        opts.signal,
      );
    }
    raw = await awaitSocket(net.connect({ host: ip, port }), "connect", left(), opts.signal);
    return raw;
  }
  const proxySocket = await connectProxy(opts.proxy, { ...opts, timeoutMs: left() });
  raw = await connectTunnel(proxySocket, ip, port, opts.proxy, left());
  if (servername === false) return raw;
  const secure = tls.connect({ socket: raw, servername, ALPNProtocols: ["http/1.1"], ca: opts.ca });
  // Closing the TLS layer does not always close the tunnel under it.
  secure.once("close", () => raw.destroy());
  return awaitSocket(secure, "secureConnect", left(), opts.signal);
}

/**
 * resolveChecked + openSocket over the addresses in turn (the next one after a network failure):
 * a socket to `host:port` that can only end at a checked address.
 */
export async function connectChecked(
  host: string,
  port: number,
  servername: string | undefined | false,
  opts: SocketOptions & Omit<ResolveOptions, "timeoutMs">,
): Promise<{ socket: net.Socket; ip: string }> {
  const started = Date.now();
  const addresses = await resolveChecked(host, { ...opts, timeoutMs: opts.timeoutMs });
  let lastErr: unknown;
  for (const ip of addresses) {
    const left = opts.timeoutMs - (Date.now() - started);
    if (left <= 0) break;
    try {
      return { socket: await openSocket(ip, port, servername, { ...opts, timeoutMs: left }), ip };
    } catch (err) {
      lastErr = err;
      if (opts.signal?.aborted) throw err;
      if (err instanceof OutboundError && !isRetryable(err)) throw err;
    }
  }
  throw (
    lastErr ?? retryableError(new OutboundError("upstream_timeout", "Connecting to the upstream server took too long."))
  );
}
