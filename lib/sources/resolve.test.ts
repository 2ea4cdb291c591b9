import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createOutbound, OutboundError, type Outbound, type StreamResponse } from "../http/outbound";
import { linkInHtml, resolveShortLink } from "./resolve";

const TIKTOK = "https://www.tiktok.com/@scout2015/video/6718335390845095173";

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let routes: Record<string, Route> = {};
const log: string[] = [];
let server: http.Server;
let port = 0;
const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    const route = routes[req.url ?? ""];
    if (route) route(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  routes = {};
  log.length = 0;
});

const redirect =
  (to: string | (() => string), status = 302): Route =>
  (_req, res) => {
    res.writeHead(status, { location: typeof to === "string" ? to : to() });
    res.end();
  };

// Only the fake short-link server's literal address is allowed.
const allowPrivateFor = (h: string) => h === "127.0.0.1";
const outbound = createOutbound({ allowPrivateFor, defaults: { retries: 0, timeoutMs: 3_000 } });

describe("resolveShortLink against a local server", () => {
  it("follows redirects with HEAD and stops at the first supported URL without fetching it", async () => {
    routes["/s/abc"] = redirect(() => `${base()}/hop`, 301);
    routes["/hop"] = redirect(`${TIKTOK}?_r=1&_t=8abc`);
    const parsed = await resolveShortLink(`${base()}/s/abc`, outbound, { allowPrivateFor });
    expect(parsed).toEqual({
      platform: "tiktok",
      videoId: "6718335390845095173",
      canonicalUrl: "https://www.tiktok.com/@/video/6718335390845095173",
    });
    expect(log).toEqual(["HEAD /s/abc", "HEAD /hop"]);
  });

  it("falls back to GET when HEAD does not redirect", async () => {
    routes["/s/get-only"] = (req, res) => {
      if (req.method === "HEAD") {
        res.writeHead(405);
        res.end();
      } else redirect("https://youtu.be/dQw4w9WgXcQ")(req, res);
    };
    const parsed = await resolveShortLink(`${base()}/s/get-only`, outbound);
    expect(parsed?.canonicalUrl).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(log).toEqual(["HEAD /s/get-only", "GET /s/get-only"]);
  });

  it("reads a small page for a meta refresh and stops reading there", async () => {
    let sent = 0;
    routes["/s/html"] = (req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      if (req.method === "HEAD") return void res.end();
      res.write(
        `<html><head><meta http-equiv="refresh" content="0; url=https://vimeo.com/76979871?share=copy"></head>`,
      );
      // then a lot of padding nobody needs (far more than socket buffers hold)
      const pad = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 1000) {
          sent++;
          if (!res.write(pad)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    };
    const parsed = await resolveShortLink(`${base()}/s/html`, outbound, { maxHtmlBytes: 4096 });
    expect(parsed).toEqual({ platform: "vimeo", videoId: "76979871", canonicalUrl: "https://vimeo.com/76979871" });
    expect(sent).toBeLessThan(1000); // 64 MiB were on offer
  });

  it("returns null when the chain lands somewhere unsupported", async () => {
    routes["/s/lost"] = redirect(() => `${base()}/landing`);
    routes["/landing"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><link rel=canonical href='/landing'></html>");
    };
    expect(await resolveShortLink(`${base()}/s/lost`, outbound)).toBeNull();
  });

  it("returns null for a short link that answers 404", async () => {
    expect(await resolveShortLink(`${base()}/s/gone`, outbound)).toBeNull();
  });

  it("refuses a redirect to an internal address without connecting there", async () => {
    routes["/s/evil"] = redirect(() => `${base()}/evil2`);
    routes["/evil2"] = redirect("http://169.254.169.254/latest/meta-data/");
    const err = await resolveShortLink(`${base()}/s/evil`, outbound).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe("address_not_allowed");
    expect((err as OutboundError).status).toBe(422);
  });

  it("refuses to start from an internal address that is not allowed", async () => {
    const strict = createOutbound();
    routes["/s/abc"] = redirect(TIKTOK);
    const err = await resolveShortLink(`${base()}/s/abc`, strict).catch((e: unknown) => e);
    expect((err as OutboundError).code).toBe("address_not_allowed");
    expect(log).toEqual([]);
  });

  it("gives up after maxHops", async () => {
    routes["/loop"] = redirect(() => `${base()}/loop`);
    const err = await resolveShortLink(`${base()}/loop`, outbound, { maxHops: 3 }).catch((e: unknown) => e);
    expect((err as OutboundError).code).toBe("too_many_redirects");
    expect(log.filter((l) => l === "HEAD /loop")).toHaveLength(4);
  });
});

describe("resolveShortLink with a platform short link", () => {
  /** A stand-in outbound that answers each URL from a table of redirects. */
  function fakeOutbound(table: Record<string, string>): Pick<Outbound, "safeFetchStream"> & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      async safeFetchStream(url, opts) {
        const href = url.toString();
        calls.push(`${opts?.method} ${href}`);
        const to = table[href];
        const res: StreamResponse = {
          status: to ? 302 : 404,
          ok: false,
          headers: new Headers(to ? { location: to } : {}),
          url: href,
          redirects: 0,
          body: Readable.from([]),
        };
        return res;
      },
    };
  }

  it("expands vm.tiktok.com to the TikTok video", async () => {
    const fake = fakeOutbound({ "https://vm.tiktok.com/ZMeAbCdEf/": `${TIKTOK}?_r=1` });
    const parsed = await resolveShortLink("https://vm.tiktok.com/ZMeAbCdEf/", fake);
    expect(parsed?.videoId).toBe("6718335390845095173");
    expect(fake.calls).toEqual(["HEAD https://vm.tiktok.com/ZMeAbCdEf/"]);
  });

  it("expands fb.watch through an intermediate hop", async () => {
    const fake = fakeOutbound({
      "https://fb.watch/abcDEF123/": "https://www.facebook.com/share/v/1AbCdEfGh/",
      "https://www.facebook.com/share/v/1AbCdEfGh/": "https://www.facebook.com/NASA/videos/1234567890123456/",
    });
    const parsed = await resolveShortLink("https://fb.watch/abcDEF123/", fake);
    expect(parsed).toEqual({
      platform: "facebook",
      videoId: "1234567890123456",
      canonicalUrl: "https://www.facebook.com/watch/?v=1234567890123456",
    });
  });

  it("returns null when a short link lands on another platform", async () => {
    const fake = fakeOutbound({ "https://fb.watch/abcDEF123/": "https://youtu.be/dQw4w9WgXcQ" });
    expect(await resolveShortLink("https://fb.watch/abcDEF123/", fake)).toBeNull();
  });

  it("returns a URL that needs no resolving as is, without any request", async () => {
    const fake = fakeOutbound({});
    expect((await resolveShortLink("https://youtu.be/dQw4w9WgXcQ", fake))?.videoId).toBe("dQw4w9WgXcQ");
    expect(fake.calls).toEqual([]);
  });
});

describe("linkInHtml", () => {
  it("finds a meta refresh, og:url or canonical link", () => {
    expect(linkInHtml(`<meta http-equiv="Refresh" content="0;URL='https://x.com/i/status/1'">`, "https://t.co/a")).toBe(
      "https://x.com/i/status/1",
    );
    expect(
      linkInHtml(
        `<meta property="og:url" content="https://www.instagram.com/p/C8xYz12AbCd/?a=1&amp;b=2">`,
        "https://a.b/",
      ),
    ).toBe("https://www.instagram.com/p/C8xYz12AbCd/?a=1&b=2");
    expect(
      linkInHtml(`<link href="/explore/64f1a2b3c4d5e6f708192a3b" rel="canonical">`, "https://www.xiaohongshu.com/x"),
    ).toBe("https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b");
    expect(linkInHtml(`<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`, "https://a.b/")).toBeNull();
    expect(linkInHtml("<p>nothing</p>", "https://a.b/")).toBeNull();
  });
});
