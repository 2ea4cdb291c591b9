import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { peerHeaderName } from "@/lib/http/client-address";

// proxy.ts counts anonymous pages that read the database per client address (row publicPage, 300 a
// minute, here scaled to 3 by RATE_LIMIT_MULTIPLIER) and answers 429 with Retry-After past it.

let proxy: typeof import("@/proxy").proxy;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "0.01";
  proxy = (await import("@/proxy")).proxy;
});

const visit = (path: string, address: string) => proxy(new NextRequest(`http://localhost:3000${path}`, { headers: { [peerHeaderName()]: address } }));

describe("rate limit of anonymous pages that read the database", () => {
  it("/explore?q=, /t/{slug} and the sitemaps: 429 with Retry-After past the limit, per address", async () => {
    for (const [path, address] of [
      ["/explore?q=a", "203.0.113.1"],
      ["/t/some-slug", "203.0.113.2"],
      ["/sitemaps/1.xml", "203.0.113.3"],
    ] as const) {
      for (let i = 0; i < 3; i++) expect((await visit(path, address)).status, path).toBe(200);
      const limited = await visit(path, address);
      expect(limited.status, path).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get("ratelimit-limit")).toBe("3");
      expect(limited.headers.get("content-security-policy")).toBeTruthy(); // still a page with the page policy
      expect(await limited.text()).toMatch(/Too many requests/);
      expect((await visit(path, "198.51.100.7")).status, `${path} from another address`).toBe(200);
    }
  });

  it("pages that read nothing public are not counted", async () => {
    for (let i = 0; i < 5; i++) expect((await visit("/", "203.0.113.4")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await visit("/signin", "203.0.113.4")).status).toBe(200);
  });
});
