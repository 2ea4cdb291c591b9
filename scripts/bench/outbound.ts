// Connections the outbound transport opens for YouTube captions: the player request(s) and the
// caption fetch of one video through the local YouTube fake (real youtubei.js, real outbound module),
// then ten videos in a row on one instance. A TCP relay in front of the fake counts accepted sockets.
// Run directly: `npx tsx scripts/bench/outbound.ts`; the main bench script imports benchOutbound().
//
// Before the undici transport (node:http, every response's socket destroyed at its end), connections
// = requests; the same script run on that commit (93e170d) printed the figures in notes/outbound.md.
import net, { type AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

import { pickTrack } from "../../lib/captions/pick-track";
import { createYoutubeProvider } from "../../lib/captions/youtube";
import { createOutbound } from "../../lib/http/outbound";
import { parseSourceUrl, type ParsedSource } from "../../lib/sources";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { startFakeYoutube } from "../../test/fakes/youtube/server";

/** A TCP relay to `port` that counts the connections it accepts. */
async function countingRelay(
  port: number,
): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Requests and connections for one video's player + caption fetch, and for ten in a row. */
export async function benchOutbound(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const relay = await countingRelay(Number(new URL(fake.url).port));
  const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });
  const youtube = createYoutubeProvider({ outbound, innertubeBaseUrl: relay.url });
  const source = parseSourceUrl(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`) as ParsedSource;

  const one = async () => {
    const info = await youtube.getInfo(source);
    const track = pickTrack(info.tracks, "en");
    if (!track) throw new Error("the fake's captioned video has no English track");
    const segments = await youtube.fetchTrack(info, track);
    if (segments.length === 0) throw new Error("no segments");
  };

  try {
    await one();
    const firstRequests = fake.requests.length;
    const firstConnections = relay.accepted();
    for (let i = 0; i < 9; i++) await one();
    return {
      "one video: requests (player + captions)": firstRequests,
      "one video: connections opened": firstConnections,
      "ten videos in a row: requests": fake.requests.length,
      "ten videos in a row: connections opened": relay.accepted(),
    };
  } finally {
    await outbound.close();
    await relay.close();
    await fake.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [label, value] of Object.entries(await benchOutbound())) console.log(`${label.padEnd(52)} ${value}`);
}
