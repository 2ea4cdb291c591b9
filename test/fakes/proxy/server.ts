/**
 * A fake forward HTTP proxy for egress tests: a real node:http server on 127.0.0.1 that takes
 * absolute-form requests (`GET http://127.0.0.1:1234/path HTTP/1.1`, what the outbound module sends a
 * proxy for http:// targets) and, by `mode`:
 *
 *   "pass"       forwards them to the target and relays the answer (adding `x-fake-proxy: <name>`);
 *   "bot-check"  answers InnerTube /player calls with YouTube's recorded bot-check response
 *                (LOGIN_REQUIRED "Sign in to confirm you're not a bot") and forwards the rest;
 *   "empty-tracks" answers caption tracks (/api/timedtext) with an empty 200 and forwards the rest;
 *   "429"        answers everything with YouTube's recorded 429 page;
 *   "hang"       never answers.
 *
 * Every request is counted in `requests` (method and URL).
 *
 * With `intercept` (an origin such as the YouTube fake's), HTTPS through the proxy is answered too:
 * CONNECT is accepted, TLS is terminated with a throwaway self-signed certificate (made in Node by the
 * `selfsigned` package, so no openssl CLI is needed; the client must skip verification, e.g. yt-dlp's --no-check-certificates), and the
 * requests inside are sent on to `intercept` with their path and query. That is how a real client
 * whose URLs are hard-wired to https://www.youtube.com (yt-dlp's YouTube extractor) reaches the fake.
 * Tunnelled requests are recorded with their https:// URL.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "selfsigned";

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), "..", "youtube", "fixtures", "recorded");

export type ProxyMode = "pass" | "bot-check" | "empty-tracks" | "429" | "hang";

export interface FakeProxy {
  url: string;
  name: string;
  mode: ProxyMode;
  requests: { method: string; url: string }[];
  close(): Promise<void>;
}

/** A self-signed certificate for the given host names, valid for two days. */
async function selfSigned(hosts: readonly string[]): Promise<{ key: string; cert: string }> {
  const notBeforeDate = new Date();
  const pems = await generate([{ name: "commonName", value: hosts[0] }], {
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 2 * 24 * 3600 * 1000),
    extensions: [{ name: "subjectAltName", altNames: hosts.map((value) => ({ type: 2, value })) }],
  });
  return { key: pems.private, cert: pems.cert };
}

function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
  name: string,
): void {
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  delete headers.host;
  const upstream = http.request(target, { method: req.method, headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, { ...up.headers, "x-fake-proxy": name });
    up.pipe(res);
  });
  upstream.on("error", () => {
    res.writeHead(502, { "content-type": "text/plain" });
    res.end("bad gateway");
  });
  upstream.end(body);
}

export async function startFakeProxy(
  name: string,
  mode: ProxyMode = "pass",
  opts: { intercept?: string } = {},
): Promise<FakeProxy> {
  const blocked = JSON.stringify(JSON.parse(readFileSync(join(RECORDED, "request_blocked.json"), "utf8")));
  const tooMany = readFileSync(join(RECORDED, "too_many_requests.html"), "utf8");
  const proxy: FakeProxy = { url: "", name, mode, requests: [], close: async () => undefined };

  const server = http.createServer((req, res) => {
    const target = req.url ?? "";
    proxy.requests.push({ method: req.method ?? "", url: target });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (proxy.mode === "hang") return;
      if (!/^http:\/\//.test(target)) {
        res.writeHead(400, { "content-type": "text/plain" });
        return res.end("absolute-form http:// requests only");
      }
      if (proxy.mode === "bot-check" && new URL(target).pathname === "/youtubei/v1/player") {
        res.writeHead(200, {
          "content-type": "application/json; charset=UTF-8",
          "content-length": Buffer.byteLength(blocked),
        });
        return res.end(blocked);
      }
      if (proxy.mode === "empty-tracks" && new URL(target).pathname === "/api/timedtext") {
        res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": 0 });
        return res.end();
      }
      if (proxy.mode === "429") {
        res.writeHead(429, {
          "content-type": "text/html; charset=UTF-8",
          "content-length": Buffer.byteLength(tooMany),
        });
        return res.end(tooMany);
      }
      forward(target, req, Buffer.concat(chunks), res, name);
    });
  });

  if (opts.intercept) {
    const origin = opts.intercept.replace(/\/+$/, "");
    const { key, cert } = await selfSigned([
      "www.youtube.com",
      "youtube.com",
      "m.youtube.com",
      "youtubei.googleapis.com",
    ]);
    const inner = http.createServer((req, res) => {
      const url = `https://${req.headers.host ?? "unknown"}${req.url ?? "/"}`;
      proxy.requests.push({ method: req.method ?? "", url });
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => forward(`${origin}${req.url ?? "/"}`, req, Buffer.concat(chunks), res, name));
    });
    server.on("connect", (_req, socket) => {
      if (proxy.mode === "hang") return;
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      const secure = new tls.TLSSocket(socket, { isServer: true, key, cert });
      secure.on("error", () => socket.destroy());
      inner.emit("connection", secure);
    });
  } else {
    server.on("connect", (_req, socket) => socket.end("HTTP/1.1 405 Method Not Allowed\r\n\r\n"));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return proxy;
}

/**
 * A resolver for tests that reach YouTube through the TLS-terminating proxy above: there is no DNS here,
 * so YouTube's names resolve to one of its public addresses (the proxy ignores CONNECT's target).
 */
export async function youtubeResolver(host: string): Promise<string[]> {
  if (/(^|\.)(youtube\.com|googleapis\.com|googlevideo\.com)$/.test(host)) return ["142.250.80.46"];
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true })).map((a) => a.address);
}
