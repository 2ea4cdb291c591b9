import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import zlib from "node:zlib";

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { OutboundError } from "./errors";
import { createOutbound } from "./fetch";
import { outbound as defaultOutbound } from "./index";

// Test-only self-signed certificate and key for "media.test" (EC P-256, valid until 2126).
// Generated with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
//   -subj "/CN=media.test" -addext "subjectAltName=DNS:media.test"
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIUJj+jp8oTnXyrKov1UnMINhXUK7MwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKbWVkaWEudGVzdDAgFw0yNjExMjIwNDA0MzlaGA8yMTI2MTAy
OTA0MDQzOVowFTETMBEGA1UEAwwKbWVkaWEudGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABFKU1rQerDCak+wMhxDUotlMlTiBnggIy4E7I49/6mlJGUYXcTmL
+xJmrvhzDkIsUkNlny4ueKqVgQYmHION0rKjajBoMB0GA1UdDgQWBBSlbk74pZpE
gF0+5hytczoktBMdFDAfBgNVHSMEGDAWgBSlbk74pZpEgF0+5hytczoktBMdFDAP
BgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCm1lZGlhLnRlc3QwCgYIKoZIzj0E
AwIDSAAwRQIgIFhYo4FIhTNwBcSWSqivK2+kJljJ1dHAaSp3MVmKebQCIQCS4NFV
vCUbxwP3ZAVed+vUtX//Eqzk6jXa+wZYpR+P0Q==
-----END CERTIFICATE-----`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsdXV+GFnJ9zxxDHz
7Ldwu+Vix90tm9AFtKZgefKzNPKhRANCAARSlNa0HqwwmpPsDIcQ1KLZTJU4gZ4I
CMuBOyOPf+ppSRlGF3E5i/sSZq74cw5CLFJDZZ8uLniqlYEGJhyDjdKy
-----END PRIVATE KEY-----`;

// ---------------------------------------------------------------------------------------------------
// Fixtures: real servers on 127.0.0.1, port 0.
// ---------------------------------------------------------------------------------------------------

/** A TCP server that only counts connections: any refused request must leave it at 0. */
let trap: net.Server;
let trapPort = 0;
let trapConnections = 0;

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;
let handler: Handler = (_req, res) => res.end("ok");
let upstream: http.Server;
let upPort = 0;
let upRequests = 0;
let upConnections = 0;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  trap = net.createServer((s) => {
    trapConnections++;
    s.destroy();
  });
  trapPort = await listen(trap);
  upstream = http.createServer((req, res) => {
    upRequests++;
    handler(req, res, upRequests);
  });
  upstream.on("connection", () => upConnections++);
  upPort = await listen(upstream);
});

afterAll(async () => {
  await new Promise((r) => trap.close(r));
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

afterEach(() => {
  trapConnections = 0;
  upRequests = 0;
  upConnections = 0;
  handler = (_req, res) => res.end("ok");
  vi.restoreAllMocks();
});

/** Only the fake upstream's literal address is allowed; everything else internal stays refused. */
const allowLocal = (h: string) => h === "127.0.0.1";
const local = createOutbound({ allowPrivateFor: allowLocal, defaults: { retryBaseDelayMs: 5, timeoutMs: 5_000 } });
const up = (path = "/") => `http://127.0.0.1:${upPort}${path}`;

async function refused(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error("expected an OutboundError");
}

function expect4xx(err: OutboundError) {
  expect(err.status).toBeGreaterThanOrEqual(400);
  expect(err.status).toBeLessThan(500);
}

// ---------------------------------------------------------------------------------------------------

describe("refusals: nothing internal is ever connected to", () => {
  const targets = () => [
    `http://127.0.0.1:${trapPort}/`,
    `http://localhost:${trapPort}/`,
    `http://[::1]:${trapPort}/`,
    `http://[::ffff:127.0.0.1]:${trapPort}/`,
    `http://0x7f000001:${trapPort}/`,
    `http://2130706433:${trapPort}/`,
    `http://0177.0.0.1:${trapPort}/`,
    `http://127.1:${trapPort}/`,
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://10.0.0.1/",
    `file:///etc/passwd`,
    `gopher://127.0.0.1:${trapPort}/_PING`,
  ];

  it("refuses every internal or non-http target with a 4xx, without opening a socket", async () => {
    const netConnect = vi.spyOn(net, "connect");
    const tlsConnect = vi.spyOn(tls, "connect");
    const resolver = vi.fn(async () => ["127.0.0.1"]);
    const strict = createOutbound({ resolver });
    for (const url of targets()) {
      for (const client of [defaultOutbound, strict]) {
        const err = await refused(client.safeFetchBuffer(url));
        expect4xx(err);
        expect(["url_not_allowed", "address_not_allowed"]).toContain(err.code);
      }
    }
    expect(resolver).not.toHaveBeenCalled(); // all refused on sight, before DNS
    expect(netConnect).not.toHaveBeenCalled();
    expect(tlsConnect).not.toHaveBeenCalled();
    expect(trapConnections).toBe(0);
  });

  it("refuses a public-looking name that resolves to loopback (checked after resolution)", async () => {
    const netConnect = vi.spyOn(net, "connect");
    const resolver = vi.fn(async () => ["127.0.0.1"]);
    const client = createOutbound({ resolver });
    const err = await refused(client.safeFetchBuffer(`http://rebind.example.com:${trapPort}/`));
    expect(err.code).toBe("address_not_allowed");
    expect4xx(err);
    expect(resolver).toHaveBeenCalledWith("rebind.example.com");
    expect(netConnect).not.toHaveBeenCalled();
    expect(trapConnections).toBe(0);
  });

  it("refuses a name whose answers mix public and internal addresses", async () => {
    const client = createOutbound({ resolver: async () => ["93.184.216.34", "::ffff:7f00:1"] });
    const err = await refused(client.safeFetchBuffer(`http://mixed.example.com:${trapPort}/`));
    expect(err.code).toBe("address_not_allowed");
    expect(trapConnections).toBe(0);
  });

  it("resolves again for every request, so a name that rebinds between calls is caught", async () => {
    let calls = 0;
    const client = createOutbound({
      resolver: async () => (++calls === 1 ? ["127.0.0.1"] : ["10.0.0.5"]),
      allowPrivateFor: (h) => h === "rebind.test" && calls === 1, // first answer "looks fine"
    });
    const ok = await client.safeFetchBuffer(`http://rebind.test:${upPort}/`);
    expect(ok.status).toBe(200);
    const err = await refused(client.safeFetchBuffer(`http://rebind.test:${upPort}/`));
    expect(err.code).toBe("address_not_allowed");
  });

  it("refuses a redirect from an allowed server to an internal address, and never connects there", async () => {
    const netConnect = vi.spyOn(net, "connect");
    const internalTargets = [
      `http://localhost:${trapPort}/`,
      `http://[::ffff:127.0.0.1]:${trapPort}/`,
      `http://0x7f000002:${trapPort}/`, // 127.0.0.2: only 127.0.0.1 is allowed by this test
      "http://169.254.169.254/latest/meta-data/",
      `file:///etc/passwd`,
    ];
    for (const target of internalTargets) {
      handler = (_req, res) => {
        res.writeHead(302, { location: target });
        res.end();
      };
      const err = await refused(local.safeFetchBuffer(up("/start")));
      expect({ target, status: err.status, message: err.message }).toMatchObject({ target, status: 422 });
      expect(["url_not_allowed", "address_not_allowed"]).toContain(err.code);
    }
    expect(upRequests).toBe(internalTargets.length);
    // Only the allowed upstream was ever connected to (its connection is pooled, so maybe only once).
    expect(netConnect).toHaveBeenCalled();
    for (const [opts] of netConnect.mock.calls) expect(opts).toMatchObject({ host: "127.0.0.1", port: upPort });
    expect(trapConnections).toBe(0);
  });

  it("refuses a redirect to a name that resolves internally", async () => {
    const client = createOutbound({ allowPrivateFor: allowLocal, resolver: async () => ["10.1.2.3"] });
    handler = (_req, res) => {
      res.writeHead(301, { location: "http://innocent.example.com/" });
      res.end();
    };
    const err = await refused(client.safeFetchBuffer(up("/")));
    expect(err.code).toBe("address_not_allowed");
  });
});

describe("fetching from an allowed upstream", () => {
  it("returns status, headers, final URL and body", async () => {
    handler = (req, res) => {
      res.setHeader("content-type", "text/plain");
      res.setHeader("x-seen-ua", req.headers["user-agent"] ?? "");
      res.end(`hello ${req.url}`);
    };
    const res = await local.safeFetchBuffer(up("/a?b=1"));
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("x-seen-ua")).toMatch(/^Verbatim/);
    expect(res.url).toBe(up("/a?b=1"));
    expect(res.redirects).toBe(0);
    expect(res.body.toString()).toBe("hello /a?b=1");
  });

  it("follows relative redirects and reports the final URL", async () => {
    handler = (req, res) => {
      if (req.url === "/one") {
        res.writeHead(301, { location: "/two" });
        res.end();
      } else if (req.url === "/two") {
        res.writeHead(307, { location: `${up("/three")}` });
        res.end();
      } else res.end(`at ${req.url}`);
    };
    const res = await local.safeFetchBuffer(up("/one"));
    expect(res.body.toString()).toBe("at /three");
    expect(res.url).toBe(up("/three"));
    expect(res.redirects).toBe(2);
  });

  it("returns a 3xx untouched when redirects are not followed", async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: "http://169.254.169.254/" });
      res.end();
    };
    const res = await local.safeFetchBuffer(up("/"), { followRedirects: false });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://169.254.169.254/");
  });

  it("stops after the redirect limit", async () => {
    handler = (req, res) => {
      const n = Number(req.url?.slice(1) || 0);
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    };
    const err = await refused(local.safeFetchBuffer(up("/0")));
    expect(err.code).toBe("too_many_redirects");
    expect(err.status).toBe(502);
    expect(upRequests).toBe(6); // the request plus 5 followed redirects

    upRequests = 0;
    const err2 = await refused(local.safeFetchBuffer(up("/0"), { maxRedirects: 2 }));
    expect(err2.code).toBe("too_many_redirects");
    expect(upRequests).toBe(3);
  });

  it("caps the body size (declared Content-Length)", async () => {
    handler = (_req, res) => res.end(Buffer.alloc(5000, 1));
    const err = await refused(local.safeFetchBuffer(up("/"), { maxBytes: 1000 }));
    expect(err.code).toBe("response_too_large");
    expect4xx(err);
    const err2 = await refused(local.safeFetchStream(up("/"), { maxBytes: 1000 }));
    expect(err2.code).toBe("response_too_large");
  });

  it("caps the body size while reading (chunked, no Content-Length), and stops the download", async () => {
    let written = 0;
    let closed = false;
    handler = (_req, res) => {
      written = 0;
      closed = false;
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(16 * 1024, 2);
      const pump = () => {
        while (!closed && written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (closed = true));
      pump();
    };
    const err = await refused(local.safeFetchBuffer(up("/"), { maxBytes: 100_000 }));
    expect(err.code).toBe("response_too_large");

    const res = await local.safeFetchStream(up("/"), { maxBytes: 100_000 });
    expect(res.status).toBe(200);
    let got = 0;
    const err2 = await refused(
      (async () => {
        for await (const c of res.body) got += (c as Buffer).length;
      })(),
    );
    expect(err2.code).toBe("response_too_large");
    expect(got).toBeLessThanOrEqual(100_000);
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(written).toBeLessThan(50 * 1024 * 1024);
  });

  it("streams a body within the cap", async () => {
    handler = (_req, res) => {
      res.write("abc");
      setTimeout(() => res.end("def"), 20);
    };
    const res = await local.safeFetchStream(up("/"), { maxBytes: 6 });
    const parts: Buffer[] = [];
    for await (const c of res.body) parts.push(c as Buffer);
    expect(Buffer.concat(parts).toString()).toBe("abcdef");
  });

  it("times out a server that never answers (total deadline) with 504", async () => {
    handler = () => undefined; // hold the request open
    const err = await refused(local.safeFetchBuffer(up("/"), { timeoutMs: 300, retries: 0 }));
    expect(err.code).toBe("upstream_timeout");
    expect(err.status).toBe(504);
  });

  it("times out a body that stalls (total deadline covers the body for buffers)", async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write("partial");
    };
    const err = await refused(local.safeFetchBuffer(up("/"), { timeoutMs: 300 }));
    expect(err.code).toBe("upstream_timeout");
  });

  it("times out a stream that goes idle", async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write("partial");
    };
    const res = await local.safeFetchStream(up("/"), { idleTimeoutMs: 200 });
    const err = await refused(
      (async () => {
        for await (const _ of res.body) void _;
      })(),
    );
    expect(err.code).toBe("upstream_timeout");
  });

  it("cuts off a stream that drips a byte at a time within the idle limit at its total deadline", async () => {
    let timer: NodeJS.Timeout | undefined;
    handler = (_req, res) => {
      res.writeHead(200);
      timer = setInterval(() => res.write("x"), 20);
      res.on("close", () => clearInterval(timer));
    };
    const res = await local.safeFetchStream(up("/"), { idleTimeoutMs: 1_000, totalTimeoutMs: 300 });
    let received = 0;
    const err = await refused(
      (async () => {
        for await (const chunk of res.body) received += (chunk as Buffer).length;
      })(),
    );
    clearInterval(timer);
    expect(received).toBeGreaterThan(0); // bytes kept coming: only the total deadline stops it
    expect(err.code).toBe("upstream_timeout");
    expect(err.status).toBe(504);
  });

  it("times out connecting when DNS never answers", async () => {
    const client = createOutbound({ resolver: () => new Promise<string[]>(() => undefined) });
    const err = await refused(
      client.safeFetchBuffer("http://slow-dns.example.com/", { connectTimeoutMs: 100, retries: 0 }),
    );
    expect(err.code).toBe("upstream_timeout");
    expect(err.status).toBe(504);
  });

  it("retries a GET on 503 and then succeeds", async () => {
    handler = (_req, res, n) => {
      if (n === 1) {
        res.writeHead(503, { "retry-after": "0" });
        res.end("busy");
      } else res.end("fine");
    };
    const res = await local.safeFetchBuffer(up("/"));
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("fine");
    expect(upRequests).toBe(2);
  });

  it("honours Retry-After, capped by maxRetryDelayMs", async () => {
    handler = (_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { "retry-after": "3600" });
        res.end();
      } else res.end("fine");
    };
    // Uncapped, the retry would wait an hour and the test would time out.
    const res = await local.safeFetchBuffer(up("/"), { maxRetryDelayMs: 50 });
    expect(res.body.toString()).toBe("fine");
  });

  it("gives back the last 5xx response once retries are used up", async () => {
    handler = (_req, res) => {
      res.writeHead(502);
      res.end("bad gateway");
    };
    const res = await local.safeFetchBuffer(up("/"), { retries: 2 });
    expect(res.status).toBe(502);
    expect(res.ok).toBe(false);
    expect(upRequests).toBe(3);
  });

  it("retries a GET after a dropped connection", async () => {
    handler = (req, res, n) => {
      if (n === 1) req.socket.destroy();
      else res.end("second time lucky");
    };
    const res = await local.safeFetchBuffer(up("/"));
    expect(res.body.toString()).toBe("second time lucky");
  });

  it("does not retry a POST", async () => {
    handler = (_req, res) => {
      res.writeHead(503);
      res.end();
    };
    const res = await local.safeFetchBuffer(up("/"), { method: "POST", body: "x=1" });
    expect(res.status).toBe(503);
    expect(upRequests).toBe(1);
  });

  it("reports a refused connection as upstream_refused (502) after retries, naming the proxy setting", async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    const err = await refused(local.safeFetchBuffer(`http://127.0.0.1:${port}/`, { retries: 1 }));
    expect(err.code).toBe("upstream_refused");
    expect(err.status).toBe(502);
    expect(err.message).toContain("OUTBOUND_PROXY");
    expect(err.message).not.toMatch(/try again/i);
  });

  it("reports a name that does not resolve as upstream_dns_failed, not as something to retry", async () => {
    const client = createOutbound({
      resolver: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.example"), { code: "ENOTFOUND" });
      },
    });
    const err = await refused(client.safeFetchBuffer("http://nowhere.example/feed.xml", { retries: 2 }));
    expect(err.code).toBe("upstream_dns_failed");
    expect(err.status).toBe(502);
    expect(err.message).toMatch(/could not be resolved \(DNS\)/);
    expect(err.message).not.toMatch(/try again/i);
  });

  it("drops credentials when a redirect changes origin", async () => {
    const seen: Array<string | undefined> = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end("other");
    });
    const otherPort = await listen(other);
    handler = (req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` });
      res.end();
    };
    const res = await local.safeFetchBuffer(up("/"), { headers: { Authorization: "Bearer secret" } });
    expect(res.body.toString()).toBe("other");
    expect(seen).toEqual(["Bearer secret", undefined]);
    await new Promise((r) => other.close(r));
  });

  it("honours the caller's AbortSignal", async () => {
    // Aborted once the server holds the request, so no late arrival is counted in the next test.
    const ac = new AbortController();
    handler = () => ac.abort(new Error("caller gave up"));
    const p = local.safeFetchBuffer(up("/"), { signal: ac.signal });
    await expect(p).rejects.toThrow("caller gave up");
  });
});

describe("transport: pooled connections, compressed bodies", () => {
  it("reuses one kept-alive connection for consecutive requests to the same host", async () => {
    const sockets = new Set<number | undefined>();
    handler = (req, res) => {
      sockets.add(req.socket.remotePort);
      res.end("ok");
    };
    const client = createOutbound({ allowPrivateFor: allowLocal });
    for (let i = 0; i < 5; i++) expect((await client.safeFetchBuffer(up(`/n${i}`))).status).toBe(200);
    expect(upRequests).toBe(5);
    expect(sockets.size).toBe(1);
    await client.close();
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ] as const)("asks for compressed bodies and decodes %s", async (encoding, compress) => {
    const text = "caption line\n".repeat(2000);
    let asked = "";
    handler = (req, res) => {
      asked = String(req.headers["accept-encoding"]);
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": encoding });
      res.end(compress(Buffer.from(text)));
    };
    const res = await local.safeFetchBuffer(up("/subs"));
    expect(asked).toBe("gzip, deflate, br");
    expect(res.body.toString()).toBe(text);
    expect(res.headers.get("content-encoding")).toBeNull(); // the body handed back is not encoded
  });

  it("caps the decoded size: a small gzip bomb is response_too_large", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    handler = (_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip", "content-length": String(bomb.length) });
      res.end(bomb);
    };
    const err = await refused(local.safeFetchBuffer(up("/bomb"), { maxBytes: 1024 * 1024 }));
    expect(err.code).toBe("response_too_large");
  });

  it("reports a corrupt compressed body as upstream_failed", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(Buffer.from("this is not gzip at all"));
    };
    const err = await refused(local.safeFetchBuffer(up("/corrupt")));
    expect(err.code).toBe("upstream_failed");
  });
});

describe("through a proxy", () => {
  let proxy: net.Server;
  let proxyPort = 0;
  const seen: string[] = [];

  beforeAll(async () => {
    // A minimal forward proxy: plain-http absolute-form is forwarded; CONNECT is logged and refused.
    proxy = net.createServer((client) => {
      client.once("data", (buf) => {
        const head = buf.toString("latin1");
        const line = head.slice(0, head.indexOf("\r\n"));
        seen.push(line);
        const [method, target] = line.split(" ");
        if (method === "CONNECT") {
          const [host, p] = [target?.slice(0, target.lastIndexOf(":")), target?.slice(target.lastIndexOf(":") + 1)];
          if (host !== "127.0.0.1") return void client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
          const tunnel = net.connect(Number(p), host, () => {
            client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
            client.pipe(tunnel).pipe(client);
          });
          tunnel.on("close", () => client.destroy());
          tunnel.on("error", () => client.destroy());
          return;
        }
        const u = new URL(target ?? "");
        const upstreamSocket = net.connect(Number(u.port), u.hostname, () => {
          upstreamSocket.write(buf.toString("latin1").replace(target ?? "", `${u.pathname}${u.search}`), "latin1");
          client.pipe(upstreamSocket).pipe(client);
        });
        upstreamSocket.on("error", () => client.destroy());
        upstreamSocket.on("close", () => client.destroy());
      });
    });
    proxyPort = await listen(proxy);
  });
  afterAll(async () => {
    await new Promise((r) => proxy.close(r));
  });
  afterEach(() => {
    seen.length = 0;
  });

  it("resolves and checks the target itself, and asks the proxy for the checked IP", async () => {
    handler = (req, res) => res.end(`host=${req.headers.host} url=${req.url}`);
    const client = createOutbound({
      proxyUrl: `http://127.0.0.1:${proxyPort}`,
      resolver: async () => ["127.0.0.1"],
      allowPrivateFor: (h) => h === "fake-upstream.test",
    });
    const res = await client.safeFetchBuffer(`http://fake-upstream.test:${upPort}/media?x=1`);
    expect(res.body.toString()).toBe(`host=fake-upstream.test:${upPort} url=/media?x=1`);
    expect(seen).toEqual([`GET http://127.0.0.1:${upPort}/media?x=1 HTTP/1.1`]);
  });

  it("never asks the proxy for an internal target", async () => {
    const client = createOutbound({
      proxyUrl: `http://127.0.0.1:${proxyPort}`,
      resolver: async () => ["169.254.169.254"],
    });
    for (const url of [
      "http://metadata.example.com/",
      "https://metadata.example.com/",
      `http://127.0.0.1:${trapPort}/`,
    ]) {
      const err = await refused(client.safeFetchBuffer(url));
      expect(err.code).toBe("address_not_allowed");
    }
    expect(seen).toEqual([]);
  });

  it("tunnels https with CONNECT to the checked IP, not the name", async () => {
    const client = createOutbound({
      proxyUrl: `http://127.0.0.1:${proxyPort}`,
      resolver: async () => ["93.184.216.34"],
    });
    const err = await refused(client.safeFetchBuffer("https://video.example.com/a.mp3", { retries: 0 }));
    expect(err.code).toBe("upstream_failed"); // our toy proxy only tunnels to 127.0.0.1
    expect(seen).toEqual(["CONNECT 93.184.216.34:443 HTTP/1.1"]);
  });
});

describe("https", () => {
  let tlsServer: https.Server;
  let tlsPort = 0;
  const sni: Array<string | false | null> = [];

  beforeAll(async () => {
    tlsServer = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, (req, res) => {
      sni.push((req.socket as tls.TLSSocket).servername);
      res.end(`secure ${req.headers.host}`);
    });
    tlsPort = await listen(tlsServer);
  });
  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((r) => tlsServer.close(r));
  });
  afterEach(() => {
    sni.length = 0;
  });

  // media.test and other.test both "resolve" to the local TLS server; the test hook allows them.
  const settings = {
    resolver: async () => ["127.0.0.1"],
    allowPrivateFor: (h: string) => h === "media.test" || h === "other.test",
    defaults: { retries: 0 },
  };

  it("connects to the checked IP while sending SNI and verifying the certificate for the host name", async () => {
    const client = createOutbound({ ...settings, extraCa: TEST_CERT });
    const res = await client.safeFetchBuffer(`https://media.test:${tlsPort}/`);
    expect(res.body.toString()).toBe(`secure media.test:${tlsPort}`);
    expect(sni).toEqual(["media.test"]);
  });

  it("refuses a certificate that does not match the host name: upstream_tls_failed", async () => {
    const client = createOutbound({ ...settings, extraCa: TEST_CERT });
    const err = await refused(client.safeFetchBuffer(`https://other.test:${tlsPort}/`));
    expect(err.code).toBe("upstream_tls_failed");
    expect(err.status).toBe(502);
  });

  it("refuses an untrusted certificate: upstream_tls_failed, naming NODE_EXTRA_CA_CERTS", async () => {
    const client = createOutbound(settings);
    const err = await refused(client.safeFetchBuffer(`https://media.test:${tlsPort}/`));
    expect(err.code).toBe("upstream_tls_failed");
    expect(err.message).toContain("NODE_EXTRA_CA_CERTS");
  });

  it("tunnels through the proxy to the checked IP and still verifies the host name", async () => {
    const seenByProxy: string[] = [];
    const proxy = net.createServer((client) => {
      client.once("data", (buf) => {
        seenByProxy.push(buf.toString("latin1").split("\r\n")[0] ?? "");
        const tunnel = net.connect(tlsPort, "127.0.0.1", () => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          client.pipe(tunnel).pipe(client);
        });
        tunnel.on("close", () => client.destroy());
      });
    });
    const proxyPort = await listen(proxy);
    const client = createOutbound({ ...settings, extraCa: TEST_CERT, proxyUrl: `http://127.0.0.1:${proxyPort}` });
    const res = await client.safeFetchBuffer(`https://media.test:${tlsPort}/x`);
    expect(res.body.toString()).toBe(`secure media.test:${tlsPort}`);
    expect(seenByProxy).toEqual([`CONNECT 127.0.0.1:${tlsPort} HTTP/1.1`]);
    expect(sni).toEqual(["media.test"]);
    await client.close(); // the pooled, kept-alive tunnel
    await new Promise((r) => proxy.close(r));
  });
});
