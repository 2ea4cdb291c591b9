import http from "node:http";
import net, { type AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startCanary, type Canary } from "@/test/canary";

import { parseProxy } from "./connect";
import { createOutbound } from "./fetch";
import { REFUSED_REASON, startForwardProxy, type ForwardProxy } from "./forward-proxy";

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** The proxy URL split into what a client needs: address and the Proxy-Authorization value. */
function parts(proxyUrl: string): { port: number; auth: string } {
  const u = new URL(proxyUrl);
  return {
    port: Number(u.port),
    auth: `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`,
  };
}

/** A plain-HTTP request through the proxy (absolute-form): status, reason, body. */
function viaProxy(
  proxyUrl: string,
  target: string,
  auth = true,
): Promise<{ status: number; reason: string; body: string }> {
  const { port, auth: value } = parts(proxyUrl);
  return new Promise((resolve, reject) => {
    const host = URL.canParse(target) ? new URL(target).host : "example.com";
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        agent: false,
        headers: { host, ...(auth ? { "proxy-authorization": value } : {}) },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? "", body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** CONNECT through the proxy; on 200, sends a GET over the tunnel and returns its answer too. */
function connect(proxyUrl: string, target: string, auth = true): Promise<{ statusLine: string; answer: string }> {
  const { port, auth: value } = parts(proxyUrl);
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1", () => {
      s.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${value}\r\n` : ""}\r\n`,
      );
    });
    let buf = "";
    let statusLine = "";
    s.setEncoding("latin1");
    s.on("data", (c: string) => {
      buf += c;
      if (!statusLine && buf.includes("\r\n\r\n")) {
        statusLine = buf.slice(0, buf.indexOf("\r\n"));
        buf = buf.slice(buf.indexOf("\r\n\r\n") + 4);
        if (statusLine.includes(" 200 "))
          s.write(`GET /tunnelled HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
      }
    });
    s.on("close", () => resolve({ statusLine, answer: buf }));
    s.on("error", reject);
  });
}

let upstream: http.Server;
let upPort = 0;
const seenByUpstream: { url: string; headers: http.IncomingHttpHeaders }[] = [];
let canary: Canary;
let proxy: ForwardProxy;
const log: string[] = [];

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seenByUpstream.push({ url: req.url ?? "", headers: req.headers });
    res.end(`hello from ${req.headers.host}${req.url}`);
  });
  upPort = await listen(upstream);
  canary = await startCanary();
  proxy = await startForwardProxy({
    resolver: async (host) =>
      host === "nowhere.example.com"
        ? Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.example.com"), { code: "ENOTFOUND" }))
        : host === "rebind.example.com"
          ? ["127.0.0.2"]
          : host === "mixed.example.com"
            ? ["93.184.216.34", "10.0.0.1"]
            : ["93.184.216.34"],
    allowPrivateFor: (h) => h === "127.0.0.1",
    proxy: null,
    ca: undefined,
    connectTimeoutMs: 2_000,
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await proxy.close();
  await canary.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

beforeEach(() => {
  seenByUpstream.length = 0;
  log.length = 0;
});

describe("the guarded forward proxy", () => {
  it("listens on loopback only, with a random token as credentials", () => {
    expect(proxy.url).toMatch(/^http:\/\/verbatim:[\w-]{20,}@127\.0\.0\.1:\d+$/);
  });

  it("answers 407 to a client without the token (plain and CONNECT)", async () => {
    expect((await viaProxy(proxy.url, `http://127.0.0.1:${upPort}/a`, false)).status).toBe(407);
    expect((await connect(proxy.url, `127.0.0.1:${upPort}`, false)).statusLine).toMatch(/^HTTP\/1\.1 407 /);
    expect(seenByUpstream).toEqual([]);
  });

  it("forwards plain HTTP to an allowed destination, without the hop-by-hop and proxy headers", async () => {
    const res = await viaProxy(proxy.url, `http://127.0.0.1:${upPort}/media?x=1`);
    expect(res).toMatchObject({ status: 200, body: `hello from 127.0.0.1:${upPort}/media?x=1` });
    expect(seenByUpstream).toHaveLength(1);
    expect(seenByUpstream[0]?.url).toBe("/media?x=1");
    expect(seenByUpstream[0]?.headers).not.toHaveProperty("proxy-authorization");
  });

  it("tunnels CONNECT to an allowed destination", async () => {
    const { statusLine, answer } = await connect(proxy.url, `127.0.0.1:${upPort}`);
    expect(statusLine).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain(`hello from 127.0.0.1:${upPort}/tunnelled`);
  });

  it("says in its 502 why a destination could not be reached: no DNS answer, or a refused connection", async () => {
    // yt-dlp prints this status line ("Tunnel connection failed: 502 …"), which names the cause.
    const dns = await connect(proxy.url, "nowhere.example.com:443");
    expect(dns.statusLine).toBe("HTTP/1.1 502 Destination name could not be resolved");
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const refused = await connect(proxy.url, `127.0.0.1:${port}`);
    expect(refused.statusLine).toBe("HTTP/1.1 502 Destination refused the connection");
  });

  it("refuses internal destinations with 403 and a log line, and connects nowhere", async () => {
    const port = canary.port;
    const plain = [
      `http://127.0.0.2:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://0x7f000002:${port}/`,
      `http://rebind.example.com:${port}/`, // resolves to 127.0.0.2
      `http://mixed.example.com:${port}/`, // one public, one private answer
      "http://169.254.169.254/latest/meta-data/",
    ];
    for (const target of plain) {
      const res = await viaProxy(proxy.url, target);
      expect({ target, status: res.status, reason: res.reason }).toEqual({
        target,
        status: 403,
        reason: REFUSED_REASON,
      });
    }
    const tunnels = [
      `127.0.0.2:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `[::ffff:127.0.0.2]:${port}`,
      `rebind.example.com:${port}`,
      "169.254.169.254:80",
      "10.0.0.1:443",
    ];
    for (const target of tunnels) {
      const { statusLine } = await connect(proxy.url, target);
      expect({ target, statusLine }).toEqual({ target, statusLine: `HTTP/1.1 403 ${REFUSED_REASON}` });
    }
    expect(canary.connections()).toBe(0);
    expect(log).toHaveLength(plain.length + tunnels.length);
    expect(log[0]).toMatch(/^\[outbound\] forward proxy refused GET http:\/\/127\.0\.0\.2:/);
  });

  it("answers 400 to requests that are neither absolute http:// nor CONNECT host:port", async () => {
    expect((await viaProxy(proxy.url, "/relative")).status).toBe(400);
    expect((await connect(proxy.url, "127.0.0.1")).statusLine).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe("chained to an upstream proxy (OUTBOUND_PROXY)", () => {
  let upstreamProxy: net.Server;
  let chained: ForwardProxy;
  const firstLines: string[] = [];

  beforeAll(async () => {
    // Records the request line, then answers: CONNECT → 200 and a canned response over the "tunnel";
    // absolute-form → a canned response naming what it was asked for.
    upstreamProxy = net.createServer((client) => {
      client.once("data", (buf) => {
        const line = buf.toString("latin1").split("\r\n")[0] ?? "";
        firstLines.push(line);
        if (line.startsWith("CONNECT ")) {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          client.once("data", () => client.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"));
          return;
        }
        const body = `asked for ${line.split(" ")[1]}`;
        client.end(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      });
    });
    const port = await listen(upstreamProxy);
    chained = await startForwardProxy({
      resolver: async (host) => (host === "internal.example.com" ? ["10.1.2.3"] : ["93.184.216.34"]),
      proxy: parseProxy(`http://127.0.0.1:${port}`),
      ca: undefined,
      connectTimeoutMs: 2_000,
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await chained.close();
    await new Promise((r) => upstreamProxy.close(r));
  });

  it("asks the upstream proxy for the checked address, never for the name", async () => {
    const { statusLine, answer } = await connect(chained.url, "video.example.com:443");
    expect(statusLine).toMatch(/ 200 /);
    expect(answer).toContain("ok");
    const res = await viaProxy(chained.url, "http://video.example.com/a.mp4?x=1");
    expect(res.body).toBe("asked for http://93.184.216.34:80/a.mp4?x=1");
    expect(firstLines).toEqual([
      "CONNECT 93.184.216.34:443 HTTP/1.1",
      "GET http://93.184.216.34:80/a.mp4?x=1 HTTP/1.1",
    ]);
  });

  it("never hands the upstream proxy an internal destination", async () => {
    firstLines.length = 0;
    expect((await connect(chained.url, "internal.example.com:443")).statusLine).toBe(`HTTP/1.1 403 ${REFUSED_REASON}`);
    expect((await viaProxy(chained.url, "http://internal.example.com/")).status).toBe(403);
    expect(firstLines).toEqual([]);
  });
});

describe("Outbound.toolProxyUrl", () => {
  it("starts one proxy per instance, lazily, and close() stops it", async () => {
    const o = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });
    const [a, b] = await Promise.all([o.toolProxyUrl(), o.toolProxyUrl()]);
    expect(a).toBe(b);
    expect((await viaProxy(a, `http://127.0.0.1:${upPort}/x`)).status).toBe(200);
    await o.close();
    await expect(viaProxy(a, `http://127.0.0.1:${upPort}/x`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
