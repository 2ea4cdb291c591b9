import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { createOutbound } from "@/lib/http/outbound";
import { resolvePodcast, type ResolveDeps } from "@/lib/podcasts/resolve-podcast";
import { DEFAULT_FEED_PARSE } from "@/lib/podcasts/fetch-feed";

// Feeds made to stall the server: one item with 1.4 million attributes (about 17 MB), 300,000
// items, a feed dripping a byte at a time. Each is answered with a clear error or a capped page. A feed that
// takes seconds to parse (60,000 items, within the bounds) does not hold the event loop: health requests
// sent one after another from the moment it is sent complete before the resolve does (a parse on the event
// loop would hold them all until it ends).

function feed(items: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Hostile</title>${items}</channel></rss>`;
}

function attributesFeed(count: number): string {
  const attributes = Array.from({ length: count }, (_, i) => `a${i}="x"`).join(" ");
  return feed(
    `<item><title>One</title><enclosure url="https://e.example/1.mp3" type="audio/mpeg" ${attributes}/></item>`,
  );
}

function itemsFeed(count: number): string {
  return feed(
    Array.from({ length: count }, (_, i) => `<item><enclosure url="https://e.example/${i}.mp3"/></item>`).join(""),
  );
}

const FEEDS: Record<string, () => string> = {
  "/attributes.xml": () => attributesFeed(1_400_000),
  "/items.xml": () => itemsFeed(300_000),
  "/twelve-thousand.xml": () => itemsFeed(12_000),
  "/60k.xml": () => itemsFeed(60_000),
};

let server: http.Server;
let origin: string;
/** Resolved when the feed server has handed the whole body of a feed to the socket (the parse is next). */
let sent: () => void = () => undefined;
let healthServer: http.Server;
let healthOrigin: string;
let deps: ResolveDeps;
const bodies = new Map<string, Buffer>();

beforeAll(async () => {
  for (const [path, make] of Object.entries(FEEDS)) bodies.set(path, Buffer.from(make()));
  server = http.createServer((req, res) => {
    if (req.url === "/drip.xml") {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      const timer = setInterval(() => res.write("<"), 20);
      res.on("close", () => clearInterval(timer));
      return;
    }
    const body = bodies.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/rss+xml", "content-length": body.length });
    res.end(body, () => sent());
  });
  healthServer = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => healthServer.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  healthOrigin = `http://127.0.0.1:${(healthServer.address() as AddressInfo).port}`;
  deps = {
    outbound: createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" }),
    lookupUrl: `${origin}/lookup`,
    maxBytes: 20 * 1024 * 1024,
    // The bounds must refuse these feeds, not the deadline: on a loaded machine (npm test's other steps) the
    // linear pass over 17 MB can take longer than the 20 s default.
    parse: { ...DEFAULT_FEED_PARSE, timeoutMs: 120_000 },
  };
});

afterAll(async () => {
  await deps?.outbound.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => healthServer?.close(resolve));
});

/**
 * Resolves `path`, and from the moment the feed server has sent the whole feed, sends health requests one
 * after another until the resolve settles. Returns how it settled and how many health answers came back
 * before it did.
 */
async function resolveWhileProbing(path: string, request: { limit?: number; offset?: number } = {}) {
  let settled = false;
  let answered = 0;
  const probing = new Promise<void>((resolve) => {
    sent = () => {
      void (async () => {
        while (!settled) {
          const res = await fetch(`${healthOrigin}/health`);
          await res.text();
          if (!settled) answered++;
        }
        resolve();
      })();
    };
  });
  const outcome = await resolvePodcast("user", { url: `${origin}${path}`, ...request }, deps).then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: null, error }),
  );
  settled = true;
  await probing;
  return { ...outcome, answered };
}

describe("hostile feeds", { timeout: 180_000 }, () => {
  it("one item with 1.4 million attributes (17 MB): a clear 422", async () => {
    expect(bodies.get("/attributes.xml")!.length).toBeGreaterThan(16_000_000);
    const { error } = await resolveWhileProbing("/attributes.xml");
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "feed_invalid" });
    expect((error as ApiError).message).toMatch(/more than 64 attributes/);
  });

  it("60,000 items, seconds of parsing: health requests are answered meanwhile", async () => {
    const { value, answered } = await resolveWhileProbing("/60k.xml", { limit: 1 });
    expect(value).toMatchObject({ kind: "feed", total_episodes: 60_000, next_offset: 1 });
    expect(answered).toBeGreaterThanOrEqual(5);
  });

  it("300,000 items: a clear 422 (past the element bound)", async () => {
    const { error } = await resolveWhileProbing("/items.xml");
    expect(error).toMatchObject({ status: 422, code: "feed_invalid" });
    expect((error as ApiError).message).toMatch(/more than 500000 elements/);
  });

  it("12,000 episodes: the first 10,000 are paged through, 5,000 a page by default and at most", async () => {
    const first = await resolveWhileProbing("/twelve-thousand.xml");
    expect(first.value).toMatchObject({ kind: "feed", total_episodes: 12_000, next_offset: 5_000 });
    expect(first.value!.episodes).toHaveLength(5_000);
    const last = await resolvePodcast(
      "user",
      { url: `${origin}/twelve-thousand.xml`, offset: 9_900, limit: 5_000 },
      deps,
    );
    expect(last.episodes!.map((e) => e.audio_url)).toEqual(
      Array.from({ length: 100 }, (_, i) => `https://e.example/${9_900 + i}.mp3`),
    );
    expect(last.next_offset).toBeNull();
  });

  it("a feed dripping a byte every 20 ms is cut off at the total deadline: 504", async () => {
    const error = await resolvePodcast("user", { url: `${origin}/drip.xml` }, { ...deps, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 504, code: "upstream_timeout" });
  });

  it("a feed past the parser's memory limit or deadline: a clear 422, the process unharmed", async () => {
    const parse = { threads: 1, timeoutMs: 20_000, memoryMb: 32, maxEpisodes: 10_000 };
    // 60,000 items are within the bounds; parsing them needs far more than 32 MB of heap.
    const memory = await resolvePodcast(
      "user",
      { url: `${origin}/60k.xml` },
      { ...deps, parse: { ...parse, memoryMb: 32 } },
    ).catch((e: unknown) => e);
    const deadline = await resolvePodcast(
      "user",
      { url: `${origin}/twelve-thousand.xml` },
      { ...deps, parse: { ...parse, timeoutMs: 1 } },
    ).catch((e: unknown) => e);
    for (const error of [memory, deadline])
      expect(error).toMatchObject({
        status: 422,
        code: "feed_invalid",
        message: expect.stringMatching(/too large or too complex/),
      });
    // The thread was stopped, the process goes on: the next feed is read.
    const after = await resolvePodcast("user", { url: `${origin}/twelve-thousand.xml` }, { ...deps, parse });
    expect(after.total_episodes).toBe(12_000);
  });
});
