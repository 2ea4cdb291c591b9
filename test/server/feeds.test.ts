import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, test } from "vitest";
import { randomEmail } from "../emails";
import { recordSecrets } from "../secrets";
import { anonymous, signIn, type APIRequestContext } from "./http";

// Hostile feeds against the built app, where the feed parser runs in a worker thread that Next.js bundles:
// a 17 MB feed with one item of 1.4 million attributes is a clear 422 (refused by the bounds before parsing);
// a feed that takes seconds to parse (60,000 items, within the bounds) does not hold up other requests:
// /health requests sent one after another from the moment the feed is sent are answered before the resolve
// is (on the event loop, the parse held every one of them until it ended); a feed of 1,000 episodes answers
// all of them by default, and 100 with total_episodes and next_offset when asked for 100.

const baseURL = inject("appOrigin");
let request: APIRequestContext;
let signedIn: APIRequestContext | undefined;
beforeEach(async () => {
  request = await anonymous(baseURL);
});
afterEach(async () => {
  await request.dispose();
  await signedIn?.dispose();
});

let server: http.Server;
let origin: string;
let sent: () => void = () => undefined;
const FEEDS = new Map<string, Buffer>();

function feed(items: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Fuzzed</title>${items}</channel></rss>`;
}

beforeAll(async () => {
  const attributes = Array.from({ length: 1_400_000 }, (_, i) => `a${i}="x"`).join(" ");
  FEEDS.set(
    "/attributes.xml",
    Buffer.from(feed(`<item><enclosure url="https://e.example/1.mp3" type="audio/mpeg" ${attributes}/></item>`)),
  );
  FEEDS.set(
    "/60k.xml",
    Buffer.from(
      feed(
        Array.from({ length: 60_000 }, (_, i) => `<item><enclosure url="https://e.example/${i}.mp3"/></item>`).join(""),
      ),
    ),
  );
  FEEDS.set(
    "/thousand.xml",
    Buffer.from(
      feed(
        Array.from(
          { length: 1000 },
          (_, i) => `<item><title>E${i}</title><enclosure url="https://e.example/${i}.mp3"/></item>`,
        ).join(""),
      ),
    ),
  );
  server = http.createServer((req, res) => {
    const body = FEEDS.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/rss+xml", "content-length": body.length });
    res.end(body, () => sent());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

test("hostile and large feeds: a clear 422; /health answers while a feed is parsed; episodes a page at a time", async () => {
  signedIn = await signIn(baseURL, randomEmail("feeds"));
  const ensured = await signedIn.post("/v1/me/api-key/ensure", { headers: { origin: baseURL } });
  const { key } = (await ensured.json()) as { key: string };
  recordSecrets(key);
  const resolve = (url: string, extra: Record<string, unknown> = {}) =>
    request.post("/v1/podcast/resolve", {
      headers: { authorization: `Bearer ${key}` },
      data: { url, ...extra },
      failOnStatusCode: false,
      timeout: 60_000,
    });

  const hostile = await resolve(`${origin}/attributes.xml`);
  expect(hostile.status()).toBe(422);
  const [item] = (await hostile.json()).detail;
  expect(item).toMatchObject({ type: "feed_invalid", msg: expect.stringMatching(/more than 64 attributes/) });

  let settled = false;
  let answered = 0;
  const probing = new Promise<void>((done) => {
    sent = () => {
      void (async () => {
        while (!settled) {
          const health = await request.get("/health", { failOnStatusCode: false });
          expect(health.status()).toBe(200);
          if (!settled) answered++;
        }
        done();
      })();
    };
  });
  const long = await resolve(`${origin}/60k.xml`, { limit: 1 });
  settled = true;
  await probing;
  expect(long.status()).toBe(200);
  expect(await long.json()).toMatchObject({ total_episodes: 60_000, next_offset: 1 });
  expect(answered).toBeGreaterThanOrEqual(5);

  // A real feed comes back whole by default (up to 5,000 episodes); a client may still page it.
  const whole = await resolve(`${origin}/thousand.xml`);
  expect(whole.status()).toBe(200);
  const all = await whole.json();
  expect(all).toMatchObject({ kind: "feed", total_episodes: 1000, next_offset: null });
  expect(all.episodes).toHaveLength(1000);
  const first = await resolve(`${origin}/thousand.xml`, { limit: 100 });
  expect(first.status()).toBe(200);
  const body = await first.json();
  expect(body).toMatchObject({ kind: "feed", total_episodes: 1000, next_offset: 100 });
  expect(body.episodes).toHaveLength(100);
  const last = await (await resolve(`${origin}/thousand.xml`, { offset: 900, limit: 500 })).json();
  expect(last.episodes.map((e: { title: string }) => e.title)).toEqual(
    Array.from({ length: 100 }, (_, i) => `E${900 + i}`),
  );
  expect(last.next_offset).toBeNull();
}, 120_000);
