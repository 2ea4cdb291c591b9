/**
 * A guarded forward proxy on a loopback port, for child processes that make their own connections
 * (yt-dlp runs with `--proxy <url>`): every connection they make passes the same guard as the app's own
 * fetches.
 *
 * - CONNECT host:port (https, and anything tunnelled) and absolute-form plain HTTP requests;
 * - each destination is vetted with `checkUrl` (scheme, literal internal hosts and names, ports), then
 *   resolved and EVERY address checked, and the socket opened to a checked address (connect.ts): no
 *   second lookup, and with an upstream proxy (OUTBOUND_PROXY) it is asked for the checked IP;
 * - a refused destination gets `403 Destination not allowed by the outbound guard` and a log line;
 *   a destination that cannot be reached gets 502;
 * - only the process that was given the URL can use it: the URL carries a random token as proxy
 *   credentials (`Proxy-Authorization`), anything else gets 407;
 * - tunnels and requests close after `idleTimeoutMs` of silence.
 *
 * A short node:http implementation rather than a proxy library: `proxy-chain` and `http-proxy` connect
 * to the destination by NAME (their own lookup, or the upstream proxy's), and neither lets us hand them
 * the socket to the address we checked, which is the whole point here.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

import {
  bracket,
  connectChecked,
  connectProxy,
  resolveChecked,
  type ProxyConfig,
  type Resolver,
  type TlsCa,
} from "./connect";
import { isOutboundError } from "./errors";
import { checkUrl, effectivePort } from "./guard";
import { log as logger } from "@/lib/observability/logger";

export interface ForwardProxyOptions {
  resolver: Resolver;
  allowPrivateFor?: (host: string) => boolean;
  allowedPorts?: readonly number[];
  /** Upstream proxy to chain to (asked for the checked IP), or null. */
  proxy: ProxyConfig | null;
  ca: TlsCa;
  /** Resolving + connecting one destination. */
  connectTimeoutMs: number;
  /** A tunnel or request silent this long is closed. Default 120 s. */
  idleTimeoutMs?: number;
  /** Where refusals are reported. Default: the logger, at warn. */
  log?: (line: string) => void;
}

export interface ForwardProxy {
  /** `http://verbatim:<token>@127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export const REFUSED_REASON = "Destination not allowed by the outbound guard";

/** Request headers that belong to the hop between the client and us, not to the destination. */
const HOP_HEADERS = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function hopless(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_HEADERS.has((raw[i] as string).toLowerCase())) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

export async function startForwardProxy(opts: ForwardProxyOptions): Promise<ForwardProxy> {
  const token = randomBytes(18).toString("base64url");
  const expected = Buffer.from(`Basic ${Buffer.from(`verbatim:${token}`).toString("base64")}`);
  const idleMs = opts.idleTimeoutMs ?? 120_000;
  const log = opts.log ?? ((line: string) => logger.warn(line));
  const open = new Set<Duplex>();

  const track = (s: Duplex) => {
    open.add(s);
    s.once("close", () => open.delete(s));
  };
  const authorized = (req: http.IncomingMessage) => {
    const got = Buffer.from(req.headers["proxy-authorization"] ?? "");
    return got.length === expected.length && timingSafeEqual(got, expected);
  };

  /** Vets and connects one destination; the error says whether it was refused or unreachable. */
  async function dial(target: URL): Promise<Socket> {
    const port = Number(target.port) || (target.protocol === "https:" ? 443 : 80);
    const { socket } = await connectChecked(target.hostname, port, false, {
      resolver: opts.resolver,
      allowPrivateFor: opts.allowPrivateFor,
      proxy: opts.proxy,
      ca: opts.ca,
      timeoutMs: opts.connectTimeoutMs,
    });
    return socket;
  }

  /**
   * For a plain HTTP request: a socket and the request-target to send on it. Through an upstream proxy
   * that is the proxy itself and the absolute-form URL naming the CHECKED address (as fetch.ts does;
   * proxies commonly refuse CONNECT to port 80), else a socket to the checked address.
   */
  async function dialHttp(target: URL): Promise<{ socket: Socket; path: string; extra: string[] }> {
    const pathAndQuery = `${target.pathname}${target.search}`;
    if (opts.proxy) {
      const [ip] = await resolveChecked(target.hostname, {
        resolver: opts.resolver,
        allowPrivateFor: opts.allowPrivateFor,
        timeoutMs: opts.connectTimeoutMs,
      });
      const socket = await connectProxy(opts.proxy, { ca: opts.ca, timeoutMs: opts.connectTimeoutMs });
      const extra = opts.proxy.authorization ? ["Proxy-Authorization", opts.proxy.authorization] : [];
      return { socket, path: `http://${bracket(ip as string)}:${effectivePort(target)}${pathAndQuery}`, extra };
    }
    return { socket: await dial(target), path: pathAndQuery, extra: [] };
  }

  /**
   * Why a destination could not be reached, in the status line the tool prints (yt-dlp: "Tunnel connection
   * failed: 502 …"), so its error is mapped to the cause (lib/captions/ytdlp/run.ts) rather than "try again".
   */
  function unreachableReason(err: unknown): string {
    const codes: string[] = [];
    for (
      let e: unknown = err, depth = 0;
      e && typeof e === "object" && depth < 5;
      e = (e as { cause?: unknown }).cause, depth++
    )
      if (typeof (e as { code?: unknown }).code === "string") codes.push((e as { code: string }).code);
    if (codes.some((c) => ["upstream_dns_failed", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA"].includes(c)))
      return "Destination name could not be resolved";
    if (codes.some((c) => c === "upstream_refused" || c === "ECONNREFUSED"))
      return "Destination refused the connection";
    return "Destination could not be reached";
  }

  /** 403 for what the guard refuses (logged), 502 for what could not be reached. */
  function failure(err: unknown, what: string): { status: number; reason: string } {
    if (isOutboundError(err) && (err.code === "url_not_allowed" || err.code === "address_not_allowed")) {
      log(`[outbound] forward proxy refused ${what}: ${err.message}`);
      return { status: 403, reason: REFUSED_REASON };
    }
    return { status: 502, reason: unreachableReason(err) };
  }

  const server = http.createServer((req, res) => {
    track(req.socket);
    if (!authorized(req)) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="verbatim"', connection: "close" }).end();
      return;
    }
    let target: URL;
    try {
      if (!/^http:\/\//i.test(req.url ?? "")) throw new TypeError("absolute-form http:// only");
      target = checkUrl(req.url ?? "", { allowPrivateFor: opts.allowPrivateFor, allowedPorts: opts.allowedPorts });
    } catch (err) {
      const { status, reason } = isOutboundError(err)
        ? failure(err, `${req.method} ${req.url}`)
        : { status: 400, reason: "Bad request" };
      res.writeHead(status, reason, { connection: "close", "content-type": "text/plain" }).end(`${reason}\n`);
      return;
    }
    dialHttp(target).then(
      ({ socket, path, extra }) => {
        track(socket);
        socket.setTimeout(idleMs, () => socket.destroy());
        const upstream = http.request({
          createConnection: () => socket,
          method: req.method,
          path,
          headers: [...hopless(req.rawHeaders), ...extra, "Connection", "close"] as unknown as http.OutgoingHttpHeaders,
        });
        upstream.once("response", (up) => {
          res.writeHead(up.statusCode ?? 502, up.statusMessage, hopless(up.rawHeaders));
          up.pipe(res);
        });
        upstream.once("error", () => {
          if (!res.headersSent) res.writeHead(502, "Bad gateway", { connection: "close" }).end();
          else res.destroy();
        });
        res.once("close", () => upstream.destroy());
        req.pipe(upstream);
      },
      (err: unknown) => {
        const { status, reason } = failure(err, `${req.method} ${target.href}`);
        res.writeHead(status, reason, { connection: "close", "content-type": "text/plain" }).end(`${reason}\n`);
      },
    );
  });

  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    const answer = (status: number, reason: string, extra = "") =>
      client.end(`HTTP/1.1 ${status} ${reason}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
    if (!authorized(req))
      return void answer(407, "Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="verbatim"\r\n');
    let target: URL;
    try {
      // "host:port" or "[v6]:port", nothing else: parsed and vetted as an https URL would be.
      if (!/^(\[[0-9a-f:.]+\]|[^\s/?#@[\]]+):\d{1,5}$/i.test(req.url ?? "")) throw new TypeError("not host:port");
      target = checkUrl(`https://${req.url}/`, {
        allowPrivateFor: opts.allowPrivateFor,
        allowedPorts: opts.allowedPorts,
      });
    } catch (err) {
      if (!isOutboundError(err)) return void answer(400, "Bad Request");
      const { status, reason } = failure(err, `CONNECT ${req.url}`);
      return void answer(status, reason);
    }
    dial(target).then(
      (socket) => {
        if (client.destroyed) return void socket.destroy();
        track(socket);
        socket.setTimeout(idleMs, () => socket.destroy());
        socket.on("error", () => client.destroy());
        socket.on("close", () => client.destroy());
        client.on("close", () => socket.destroy());
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      (err: unknown) => {
        const { status, reason } = failure(err, `CONNECT ${req.url}`);
        answer(status, reason);
      },
    );
  });
  server.on("clientError", (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A helper for the app, never a reason for the process to stay up.
  server.unref();
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://verbatim:${token}@127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
