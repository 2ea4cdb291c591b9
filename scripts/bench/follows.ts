// Follows (lib/follows) on real PostgreSQL, with the local runner, the delivery runner and the OpenAI-compatible
// fake (it hears "Hello." at once), against a followed feed of real size: Giant Bomb's 730 episodes (1.6 MB,
// test/fixtures/feeds), served by the fake podcast host with an ETag.
// - a check that finds nothing new: the feed unchanged (a 304) and the feed changed with no new episode (read and
//   parsed again): requests, bytes and ms, median of CHECKS runs; and a check that finds one new episode (its job
//   started), median of NEW_ITEMS runs. The ratios are the figures to compare across machines.
// - from an episode appearing (the feed changed, then checked at once, as a push or "check now" does) to its
//   `transcript.completed` reaching the follow's webhook_url, median of NEW_ITEMS runs.
// Run directly: `npx tsx scripts/bench/follows.ts`; the main bench script imports benchFollows().
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { FEEDS_DIR } from "../../test/fakes/podcasts/server";
import { startImportWorld } from "../../test/imports";
import { callRoute } from "../../test/request";

const CHECKS = 10;
const NEW_ITEMS = 5;
const FEED_PATH = "/live/giantbomb.rss";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Listens for webhook deliveries; `next()` resolves when the next one has been read. */
async function startReceiver() {
  const waiting: ((at: number) => void)[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const at = performance.now();
      res.writeHead(204).end();
      waiting.shift()?.(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    next: () => new Promise<number>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchFollows(): Promise<Record<string, number>> {
  const giantbomb = readFileSync(path.join(FEEDS_DIR, "giantbomb-podcast.rss"), "utf8");
  const at = giantbomb.indexOf("<item>");
  const withNew = (guid: string) =>
    `${giantbomb.slice(0, at)}<item><title>${guid}</title><guid isPermaLink="false">${guid}</guid><itunes:duration>1</itunes:duration><enclosure url="https://example.com/${guid}.mp3" type="audio/mpeg" length="1"/></item>\n${giantbomb.slice(at)}`;

  // The fake host's audio is a tone: voice-activity detection would call it silence (as the integration suite, off).
  const world = await startImportWorld("bench-follows", () => ({ ASR_VAD: "off", LOG_LEVEL: "warn" }));
  const receiver = await startReceiver();
  const { startDeliveryRunner } = await import("../../lib/webhooks/delivery-runner");
  const { createOutbound } = await import("../../lib/http/outbound");
  const delivery = startDeliveryRunner({
    db: world.ctx.db,
    outbound: createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" }),
  });
  try {
    const { checkFollow } = await import("../../lib/follows/check-follow");
    const { rotateRequestSecret } = await import("../../lib/webhooks/rotate-request-secret");
    const { POST } = await import("../../app/v1/follows/route");
    const { userId, headers } = await world.caller();
    // A webhook_url is signed with the account's request secret, made here as the dashboard would.
    await rotateRequestSecret(userId);
    let feed = giantbomb;
    world.podcasts.live.set(FEED_PATH, feed);
    const created = await callRoute(POST, "/v1/follows", {
      headers,
      body: { url: `${world.podcasts.origin}${FEED_PATH}`, webhook_url: receiver.url },
    });
    if (created.status !== 201) throw new Error(`POST /v1/follows: ${created.status} ${created.text}`);
    const id = (created.json as { id: string }).id;
    await checkFollow(id); // learns the ETag

    const timed = async () => {
      const started = performance.now();
      const result = await checkFollow(id);
      return { ms: performance.now() - started, ...result };
    };
    const unchanged: Awaited<ReturnType<typeof timed>>[] = [];
    const changed: Awaited<ReturnType<typeof timed>>[] = [];
    for (let i = 0; i < CHECKS; i++) {
      unchanged.push(await timed());
      // Changed, nothing new: a feed a host writes again on every publish differs in some byte.
      feed = giantbomb.replace("</channel>", `<!-- written again ${i} --></channel>`);
      world.podcasts.live.set(FEED_PATH, feed);
      changed.push(await timed());
      if (unchanged.at(-1)!.found + changed.at(-1)!.found !== 0) throw new Error("a check found an item");
    }

    const fresh: Awaited<ReturnType<typeof timed>>[] = [];
    const toWebhook: number[] = [];
    for (let i = 0; i < NEW_ITEMS; i++) {
      feed = withNew(`bench-new-${i}`);
      const delivered = receiver.next();
      const appeared = performance.now();
      world.podcasts.live.set(FEED_PATH, feed);
      const check = await timed();
      if (check.found !== 1 || check.started !== 1)
        throw new Error(`check found ${check.found}, started ${check.started}`);
      fresh.push(check);
      toWebhook.push((await delivered) - appeared);
    }

    const figures = (label: string, runs: Awaited<ReturnType<typeof timed>>[]) => ({
      [`${label}: requests`]: median(runs.map((r) => r.requests)),
      [`${label}: bytes`]: median(runs.map((r) => r.bytes)),
      [`${label}: ms (median)`]: median(runs.map((r) => r.ms)),
    });
    const unchangedMs = median(unchanged.map((r) => r.ms));
    return {
      "feed episodes": (giantbomb.match(/<item>/g) ?? []).length,
      ...figures("check, feed unchanged (304)", unchanged),
      ...figures("check, feed changed, nothing new", changed),
      ...figures("check, one new episode (job started)", fresh),
      "changed-nothing-new / unchanged, ratio": median(changed.map((r) => r.ms)) / unchangedMs,
      "one-new / unchanged, ratio": median(fresh.map((r) => r.ms)) / unchangedMs,
      "episode appears → webhook received, ms (median)": median(toWebhook),
      "episode appears → webhook received, ms (max)": Math.max(...toWebhook),
    };
  } finally {
    await delivery.stop();
    await receiver.close();
    await world.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [label, value] of Object.entries(await benchFollows())) console.log(label.padEnd(52), value);
}
