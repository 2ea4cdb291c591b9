// Figures for publishing: GET /v1/public/{slug} and /t/{slug} requests/s against /health on the
// same built server (PostgreSQL), and the first page of GET /v1/public/index with 100,000 published items
// (seeded with one INSERT … SELECT generate_series per table), plus a page 50,000 items deep by cursor.
// Cached pages: /t/{slug} (served from Next.js's cache), /explore and /sitemap.xml under 50 concurrent readers,
// req/s and p99 beside /health's under the same load.
// Word times: what they cost a public page: the real 38-minute automatic caption track t2o2 (every word
// timed) published twice, with its words and without them (the same lines), so both are measured on one
// build: bytes (uncompressed and gzip) and req/s. BENCH_PUBLISHING_WORDS_ONLY=1 measures only those (no
// 100,000-row seed, no 50-reader runs); BENCH_PUBLISHING_PORT moves the app off 4705.
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { captionSegments, parseCaptions } from "../../lib/captions/parse";
import { LARGEST_AUTO_FILE, readCaptionFile } from "../../test/fixtures/captions";
import { createMigratedTestDatabase } from "../../test/pg";
import { gritSegments } from "../../test/publishing";
import { againstHealth, requestsPerSecond, startApp, underLoad } from "./server";

const WORDS_ONLY = process.env.BENCH_PUBLISHING_WORDS_ONLY === "1";
const PUBLISHED = WORDS_ONLY ? 0 : 100_000;
const SLUG = "grit-the-power-of-passion-and-perseverance-bench1";
/** t2o2 (38 min, automatic captions) with its word times, and the same lines without them. */
const WORDS_SLUG = "t2o2-with-word-times-bench1";
const PLAIN_SLUG = "t2o2-without-word-times-bench1";

/** The real automatic caption track as stored: segments with their words (lib/captions). */
function t2o2Segments() {
  return captionSegments(parseCaptions(readCaptionFile(LARGEST_AUTO_FILE), "vtt"), "auto");
}

async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('bench-user', 'bench@example.test', now())`,
    );
    // The page under test: the real TED "Grit" captions (test/fixtures/captions).
    const segments = gritSegments();
    await client.query(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
       VALUES ('bench-grit', 'youtube', 'H14bBuluwB8', 'en', 'captions', 'manual', 'Grit: the power of passion and perseverance', 'https://www.youtube.com/watch?v=H14bBuluwB8', $1, $2)`,
      [Math.ceil(segments.at(-1)!.end), JSON.stringify(segments)],
    );
    await client.query(
      `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt") VALUES ('bench-pub', $1, 'bench-user', 'bench-grit', now(), now())`,
      [SLUG],
    );
    const timed = t2o2Segments();
    const plain = timed.map(({ start, end, text }) => ({ start, end, text }));
    for (const [id, videoId, slug, segments] of [
      ["bench-t2o2-words", "t2o2wordsAA", WORDS_SLUG, timed],
      ["bench-t2o2-plain", "t2o2plainAA", PLAIN_SLUG, plain],
    ] as const) {
      await client.query(
        `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
         VALUES ($1, 'youtube', $2, 'en', 'captions', 'auto', 'A 38-minute talk (t2o2, automatic captions)', 'https://www.youtube.com/watch?v=' || $2, $3, $4)`,
        [id, videoId, Math.ceil(segments.at(-1)!.end), JSON.stringify(segments)],
      );
      await client.query(
        `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt") VALUES ($1, $2, 'bench-user', $3, now(), now())`,
        [`${id}-pub`, slug, id],
      );
    }
    // 100,000 more: one transcript each (a user publishes a transcript once), published a second apart.
    await client.query(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
       SELECT 'bench-t-' || i, 'youtube', lpad(i::text, 11, 'v'), 'en', 'captions', 'Bench talk ' || i, 'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'v'), '[]'
       FROM generate_series(1, ${PUBLISHED}) AS i`,
    );
    await client.query(
      `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
       SELECT 'bench-p-' || i, 'bench-talk-' || i || '-abcdef', 'bench-user', 'bench-t-' || i, now() - i * interval '1 second', now()
       FROM generate_series(1, ${PUBLISHED}) AS i`,
    );
    await client.query(`ANALYZE "Publication"; ANALYZE "Transcript"`);
  } finally {
    await client.end();
  }
}

/** Requests/s of conditional requests that must all be answered 304. */
async function notModifiedPerSecond(url: string, etag: string): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: 10, headers: { "if-none-match": etag } });
  if (result["3xx"] !== result.requests.total || result.errors > 0) throw new Error(`${url}: not every answer was 304`);
  return result.requests.average;
}

/** Median and 95th percentile of `count` sequential requests, ms. */
async function latency(url: string, count = 200): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(count / 2)], p95: times[Math.floor(count * 0.95)] };
}

/** A page's bytes as served (uncompressed, as autocannon asks) and gzipped (level 6, what a CDN would send). */
async function pageBytes(url: string): Promise<{ raw: number; gzip: number }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  return { raw: body.byteLength, gzip: gzipSync(body).byteLength };
}

/** The word-timed public page against the same page without word times, on one build. */
async function wordTimes(base: string): Promise<Record<string, number>> {
  const words = `${base}/t/${WORDS_SLUG}`;
  const plain = `${base}/t/${PLAIN_SLUG}`;
  await requestsPerSecond(words, {}, 2); // warm-up (and the first render into the cache)
  await requestsPerSecond(plain, {}, 2);
  const [withBytes, withoutBytes] = [await pageBytes(words), await pageBytes(plain)];
  const withWords = await againstHealth(base, (seconds) => requestsPerSecond(words, {}, seconds));
  const withoutWords = await againstHealth(base, (seconds) => requestsPerSecond(plain, {}, seconds));
  const count = t2o2Segments().reduce((sum, segment) => sum + (segment.words?.length ?? 0), 0);
  return {
    "t2o2 (38 min): words with times": count,
    "GET /t/{slug} t2o2 without word times, bytes": withoutBytes.raw,
    "GET /t/{slug} t2o2 without word times, gzip bytes": withoutBytes.gzip,
    "GET /t/{slug} t2o2 with word times, bytes": withBytes.raw,
    "GET /t/{slug} t2o2 with word times, gzip bytes": withBytes.gzip,
    "GET /t/{slug} t2o2 without word times, req/s": withoutWords.rps,
    "GET /t/{slug} t2o2 with word times, req/s": withWords.rps,
    "GET /t/{slug} t2o2 req/s with / without word times": withWords.rps / withoutWords.rps,
  };
}

export async function benchPublishing(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  try {
    await seed(database.url);
    const app = await startApp(Number(process.env.BENCH_PUBLISHING_PORT ?? 4705), {
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    });
    try {
      const base = app.baseUrl;
      await requestsPerSecond(`${base}/health`, {}, 2); // warm-up
      const words = await wordTimes(base);
      if (WORDS_ONLY) return words;
      await requestsPerSecond(`${base}/v1/public/${SLUG}`, {}, 2);
      await requestsPerSecond(`${base}/t/${SLUG}`, {}, 2);
      // What a reader downloads (uncompressed, as autocannon asks): on loopback a cached page costs about
      // what its bytes cost to write, so the size is the figure to move.
      const pageBytes = (await (await fetch(`${base}/t/${SLUG}`)).arrayBuffer()).byteLength;
      const exploreBytes = (await (await fetch(`${base}/explore`)).arrayBuffer()).byteLength;
      const json = await againstHealth(base, (seconds) => requestsPerSecond(`${base}/v1/public/${SLUG}`, {}, seconds));
      const page = await againstHealth(base, (seconds) => requestsPerSecond(`${base}/t/${SLUG}`, {}, seconds));
      const health = json.health;
      const readers = 50;
      const healthLoaded = await underLoad(`${base}/health`, readers);
      const pageLoaded = await underLoad(`${base}/t/${SLUG}`, readers);
      const exploreLoaded = await underLoad(`${base}/explore`, readers);
      const sitemapLoaded = await underLoad(`${base}/sitemap.xml`, readers);
      const etag = (await fetch(`${base}/v1/public/${SLUG}`)).headers.get("etag")!;
      const revalidated = await notModifiedPerSecond(`${base}/v1/public/${SLUG}`, etag);

      const first = await latency(`${base}/v1/public/index`);
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) {
        const body = (await (
          await fetch(`${base}/v1/public/index?limit=1000${cursor ? `&cursor=${cursor}` : ""}`)
        ).json()) as { next_cursor: string | null };
        cursor = body.next_cursor;
      }
      const deep = await latency(`${base}/v1/public/index?cursor=${cursor}`);
      return {
        ...words,
        "PostgreSQL: GET /health req/s": health,
        "GET /v1/public/{slug} req/s (Grit, 140 segments)": json.rps,
        "GET /v1/public/{slug} / health ratio (goal ≥ 1.0)": json.ratio,
        "GET /t/{slug} bytes (uncompressed)": pageBytes,
        "GET /explore bytes (uncompressed)": exploreBytes,
        "GET /t/{slug} req/s": page.rps,
        "GET /t/{slug} / health ratio (goal ≥ 1.0)": page.ratio,
        [`${readers} readers: GET /health req/s`]: healthLoaded.rps,
        [`${readers} readers: GET /health p99 ms`]: healthLoaded.p99,
        [`${readers} readers: GET /t/{slug} req/s`]: pageLoaded.rps,
        [`${readers} readers: GET /t/{slug} p99 ms`]: pageLoaded.p99,
        [`${readers} readers: GET /t/{slug} / health ratio (goal ≥ 1.0)`]: pageLoaded.rps / healthLoaded.rps,
        [`${readers} readers: GET /explore req/s`]: exploreLoaded.rps,
        [`${readers} readers: GET /explore p99 ms`]: exploreLoaded.p99,
        [`${readers} readers: requests over 10 s (health, page, explore, sitemap)`]:
          healthLoaded.timeouts + pageLoaded.timeouts + exploreLoaded.timeouts + sitemapLoaded.timeouts,
        [`${readers} readers: GET /sitemap.xml (100,001 published) req/s`]: sitemapLoaded.rps,
        [`${readers} readers: GET /sitemap.xml p99 ms`]: sitemapLoaded.p99,
        "GET /v1/public/{slug} with If-None-Match (304) req/s": revalidated,
        [`GET /v1/public/index first page (100 items) of ${PUBLISHED + 1}, median ms`]: first.median,
        "GET /v1/public/index first page, p95 ms": first.p95,
        "GET /v1/public/index 50,000 deep by cursor, median ms": deep.median,
        "GET /v1/public/index 50,000 deep by cursor, p95 ms": deep.p95,
      };
    } finally {
      await app.stop();
    }
  } finally {
    await database.drop();
  }
}
