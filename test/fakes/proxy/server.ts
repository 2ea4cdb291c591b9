/**
 * A fake forward HTTP proxy for egress tests: a real node:http server on 127.0.0.1 that takes
 * absolute-form requests (`GET http://127.0.0.1:1234/path HTTP/1.1`, what the outbound module sends a
 * proxy for http:// targets) and, by `mode`:
 *
 *   "pass"       forwards them to the target and relays the answer (adding `x-fake-proxy: <name>`);
 *   "bot-check"  answers InnerTube /player calls with YouTube's recorded bot-check response
 *                (LOGIN_REQUIRED "Sign in to confirm you're not a bot") and forwards the rest;
 *   "429"        answers everything with YouTube's recorded 429 page;
 *   "hang"       never answers.
 *
 * Every request is counted in `requests` (method and URL).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const RECORDED = join(dirname(fileURLToPath(import.meta.url)), "..", "youtube", "fixtures", "recorded");

export type ProxyMode = "pass" | "bot-check" | "429" | "hang";

export interface FakeProxy {
  url: string;
  name: string;
  mode: ProxyMode;
  requests: { method: string; url: string }[];
  close(): Promise<void>;
}

export async function startFakeProxy(name: string, mode: ProxyMode = "pass"): Promise<FakeProxy> {
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
        res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(blocked) });
        return res.end(blocked);
      }
      if (proxy.mode === "429") {
        res.writeHead(429, { "content-type": "text/html; charset=UTF-8", "content-length": Buffer.byteLength(tooMany) });
        return res.end(tooMany);
      }
      const headers = { ...req.headers };
      delete headers["proxy-connection"];
      delete headers["proxy-authorization"];
      const upstream = http.request(target, { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, "x-fake-proxy": name });
        up.pipe(res);
      });
      upstream.on("error", () => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end("bad gateway");
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return proxy;
}
