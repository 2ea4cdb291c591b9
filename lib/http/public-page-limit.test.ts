import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The request guard counts anonymous pages that read the database per client address (row publicPage,
// 300 a minute, here scaled to 3 by RATE_LIMIT_MULTIPLIER) on Node's server, before Next.js (its cache, its
// rewrites, proxy.ts) sees the request, and answers 429 with Retry-After past it. Each case comes from its
// own loopback address (127.0.0.x), which is the socket's peer address the guard counts by.

let server: http.Server;
let port: number;
let uninstall: () => void;
const reached: string[] = [];

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "0.01";
  const { installRequestGuard, routeTable } = await import("@/lib/http/request-guard");
  const { allEndpoints } = await import("@/lib/openapi/endpoints");
  uninstall = installRequestGuard(routeTable(allEndpoints));
  server = http.createServer((request, response) => {
    reached.push(request.url!);
    response.end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000); // imports the endpoint table: slow on a busy machine

afterAll(() => {
  uninstall?.();
  server?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const visit = (path: string, from: string, method = "GET") =>
  new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, path, method, localAddress: from, agent: false },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });

describe("rate limit of anonymous pages that read the database", () => {
  it("unknown slugs, /t searches, /explore?q=, show pages and the sitemaps: 429 with Retry-After past the limit, per address, before Next.js", async () => {
    const cases = [
      {
        paths: ["/t/no-such-slug-1", "/t/no-such-slug-2", "/%74/no-such-slug-3", "/t/no-such-slug-4"],
        from: "127.0.0.2",
        other: "127.0.1.2",
      },
      {
        paths: ["/t/some-slug?q=grit", "/t/some-slug/search?q=a", "/t/other?q=b", "/t/some-slug?q=c"],
        from: "127.0.0.3",
        other: "127.0.1.3",
      },
      {
        paths: ["/explore?q=a", "/explore?q=b", "/explore", "/explore?cursor=x"],
        from: "127.0.0.4",
        other: "127.0.1.4",
      },
      {
        paths: ["/s/a-show", "/s/a-show?q=grit", "/s/a-show/search?q=a", "/s/other?q=b"],
        from: "127.0.0.7",
        other: "127.0.1.7",
      },
      {
        paths: ["/sitemap.xml", "/sitemaps/0.xml", "/sitemaps/1.xml", "/sitemaps/2.xml"],
        from: "127.0.0.5",
        other: "127.0.1.5",
      },
    ];
    for (const { paths, from, other } of cases) {
      for (const path of paths.slice(0, 3))
        expect(await visit(path, from), path).toMatchObject({ status: 200, body: "next" });
      const before = reached.length;
      const last = paths[3];
      const limited = await visit(last, from);
      expect(limited.status, last).toBe(429);
      expect(reached.length, `${last} never reaches Next.js`).toBe(before);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(limited.headers["ratelimit-limit"]).toBe("3");
      expect(limited.headers["cache-control"]).toBe("no-store");
      expect(limited.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      if (last.endsWith(".xml")) expect(JSON.parse(limited.body)).toMatchObject({ code: "rate_limited" });
      else expect(limited.body).toMatch(/Too many requests/);
      expect(await visit(last, from, "HEAD")).toMatchObject({ status: 429, body: "" });
      expect((await visit(last, other)).status, `${last} from another address`).toBe(200);
    }
  });

  it("pages that read nothing public, and the API (limited by its own rows), are not counted here", async () => {
    for (const path of ["/", "/signin", "/dashboard", "/v1/public/index", "/tools"]) {
      for (let i = 0; i < 5; i++) expect((await visit(path, "127.0.0.6")).status, path).toBe(200);
    }
  });
});
