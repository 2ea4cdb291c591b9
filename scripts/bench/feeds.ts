// /health latency while two hostile feeds are resolved: a 17 MB feed with one item of 1.4
// million attributes, and a feed of 300,000 items. "before": the feed parsed on the event loop with
// fast-xml-parser as the app once did (validator, then parser, no bounds); "after": the app's
// resolve (lib/podcasts: bounds, then a worker thread). A prober in its own thread sends GET /health to a
// server on this event loop every 10 ms and times each answer, so a stalled loop shows in its figures.
// Run directly: `npx tsx scripts/bench/feeds.ts`; the main bench script imports benchFeeds().
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { XMLParser, XMLValidator } from "fast-xml-parser";

import { createOutbound } from "../../lib/http/outbound";
import { decodeFeed } from "../../lib/podcasts/decode-feed";
import { resolvePodcastUrl } from "../../lib/podcasts/resolve-podcast";

const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const latencies = [];
let stopping = false;
let inflight = 0;
const finish = () => { if (stopping && inflight === 0) { clearInterval(timer); parentPort.postMessage(latencies); } };
parentPort.on("message", () => { stopping = true; finish(); });
const timer = setInterval(() => {
  if (stopping) return;
  const started = performance.now();
  inflight++;
  http.get(workerData.url, { agent }, (res) => {
    res.resume();
    res.on("end", () => { latencies.push(performance.now() - started); inflight--; finish(); });
  }).on("error", () => { inflight--; finish(); });
}, 10);
`;

function feed(items: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Hostile</title>${items}</channel></rss>`;
}

/** The parse as it was before feeds were bounded: on the calling thread, everything read. */
function parseOnEventLoop(text: string): number {
  if (XMLValidator.validate(text, { allowBooleanAttributes: true }) !== true) return -1;
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    processEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
  }).parse(text) as {
    rss?: { channel?: { item?: unknown } };
  };
  const items = doc.rss?.channel?.item;
  return Array.isArray(items) ? items.length : items ? 1 : 0;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function benchFeeds(): Promise<Record<string, number>> {
  const feeds: Record<string, Buffer> = {
    "1.4M-attribute feed": Buffer.from(
      feed(
        `<item><enclosure url="https://e.example/1.mp3" type="audio/mpeg" ${Array.from({ length: 1_400_000 }, (_, i) => `a${i}="x"`).join(" ")}/></item>`,
      ),
    ),
    "300,000-item feed": Buffer.from(
      feed(
        Array.from({ length: 300_000 }, (_, i) => `<item><enclosure url="https://e.example/${i}.mp3"/></item>`).join(
          "",
        ),
      ),
    ),
  };
  const feedServer = http.createServer((req, res) => {
    const body = Object.values(feeds)[Number(req.url?.slice(1))];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/rss+xml", "content-length": body.length });
    res.end(body);
  });
  const healthServer = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => healthServer.listen(0, "127.0.0.1", resolve));
  const feedOrigin = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  const healthUrl = `http://127.0.0.1:${(healthServer.address() as AddressInfo).port}/health`;
  const outbound = createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" });
  const deps = { outbound, lookupUrl: `${feedOrigin}/lookup`, maxBytes: 20 * 1024 * 1024 };

  const figures: Record<string, number> = {};
  const names = Object.keys(feeds);
  try {
    for (const [i, name] of names.entries()) {
      figures[`feeds: ${name}, MB`] = feeds[name]!.length / 1e6;
      for (const mode of ["before", "after"] as const) {
        const prober = new Worker(PROBER, { eval: true, workerData: { url: healthUrl } });
        await new Promise((resolve) => setTimeout(resolve, 200)); // the prober's first answers
        const started = performance.now();
        let outcome = "";
        if (mode === "before") {
          const response = await outbound.safeFetchBuffer(`${feedOrigin}/${i}`, { maxBytes: deps.maxBytes });
          outcome = `${parseOnEventLoop(decodeFeed(response.body, response.headers.get("content-type")))} items`;
        } else {
          outcome = await resolvePodcastUrl(`${feedOrigin}/${i}`, deps).then(
            (resolved) => `${resolved.feed?.totalEpisodes} episodes`,
            (error: { status?: number; code?: string }) => `${error.status} ${error.code}`,
          );
        }
        const elapsed = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, 100));
        const latencies = await new Promise<number[]>((resolve) => {
          prober.once("message", resolve);
          prober.postMessage("stop");
        });
        await prober.terminate();
        const sorted = latencies.sort((a, b) => a - b);
        console.log(
          `  ${name}, ${mode}: ${outcome} in ${Math.round(elapsed)} ms; /health answers ${sorted.length}, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
        );
        figures[`feeds: ${name}, ${mode}: resolve ms`] = elapsed;
        figures[`feeds: ${name}, ${mode}: /health p99 ms`] = percentile(sorted, 99);
        figures[`feeds: ${name}, ${mode}: /health max ms`] = sorted.at(-1) ?? 0;
      }
    }
  } finally {
    await outbound.close();
    feedServer.closeAllConnections();
    healthServer.closeAllConnections();
    feedServer.close();
    healthServer.close();
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await benchFeeds();
  for (const [label, value] of Object.entries(figures)) console.log(`${label.padEnd(64)} ${value.toFixed(1)}`);
}
