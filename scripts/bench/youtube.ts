// YouTube's lookup chain through the fake YouTube replaying recorded player responses
// (test/fakes/youtube/fixtures/recorded): upstream requests and wall time for one captioned video
// (player lookup + the English track) when the first client serves, when the first two clients are
// blocked (bot check) and the third serves, and when every InnerTube client is blocked and the real
// yt-dlp binary (its YouTube extractor, through the TLS-terminating test proxy) serves instead.
// A new provider per run, so each figure includes youtubei.js's session config call.
// Run directly: `npx tsx scripts/bench/youtube.ts`; the main bench script imports benchYoutube().
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

import { rewriteYoutubeUrl } from "../../lib/captions/youtube/fetch";
import { createYoutubeProvider } from "../../lib/captions/youtube/provider";
import { createYtDlpProvider } from "../../lib/captions/ytdlp/provider";
import { createOutbound } from "../../lib/http/outbound";
import { startFakeProxy, youtubeResolver } from "../../test/fakes/proxy/server";
import { type Scenario, startFakeYoutube } from "../../test/fakes/youtube/server";
import type { InnerTubeClient } from "../../lib/captions/youtube/clients";

const ID = "GJLlxj_dtq8";
const source = { platform: "youtube" as const, videoId: ID, canonicalUrl: `https://www.youtube.com/watch?v=${ID}` };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export async function benchYoutube(): Promise<Record<string, number>> {
  const fake = await startFakeYoutube();
  const mitm = await startFakeProxy("mitm", "pass", { intercept: fake.url });
  const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });
  const fallback = createYtDlpProvider({
    // yt-dlp runs behind the app's guarded forward proxy, chained to the TLS-terminating test proxy. There is
    // no DNS here: YouTube's names resolve to one of its public addresses, which the guard accepts.
    outbound: createOutbound({
      proxyUrl: mitm.url,
      resolver: youtubeResolver,
      allowPrivateFor: (h) => h === "127.0.0.1",
      defaults: { retries: 0 },
    }),
    platforms: new Set(["youtube"]),
    extraArgs: ["--no-check-certificates", "--extractor-args", "youtube:player_skip=webpage,configs,initial_data"],
    rewriteUrl: (url) => rewriteYoutubeUrl(url, fake.url),
  });
  const cases: { label: string; runs: number; scenario: Scenario; clients?: readonly InnerTubeClient[] }[] = [
    { label: "first client serves", runs: 20, scenario: { "*": "recorded/captioned" } },
    {
      label: "first two clients blocked",
      runs: 20,
      scenario: {
        VISIONOS: "recorded/request_blocked",
        ANDROID_VR: "recorded/request_blocked",
        "*": "recorded/captioned",
      },
    },
    // youtubei.js asks as ANDROID_VR and WEB (blocked); yt-dlp asks as VISIONOS (served).
    {
      label: "yt-dlp fallback",
      runs: 5,
      scenario: {
        ANDROID_VR: "recorded/request_blocked",
        WEB: "recorded/request_blocked",
        VISIONOS: "recorded/captioned",
      },
      clients: ["ANDROID_VR", "WEB"],
    },
  ];
  const results: Record<string, number> = {};
  try {
    for (const c of cases) {
      fake.scenarios.set(ID, c.scenario);
      const times: number[] = [];
      let requests = 0;
      let servedBy = "";
      for (let i = 0; i < c.runs; i++) {
        fake.requests.length = 0;
        const provider = createYoutubeProvider({
          outbound,
          innertubeBaseUrl: fake.url,
          clients: c.clients ? [...c.clients] : undefined,
          fallback,
          timeoutMs: 60_000,
        });
        const t0 = performance.now();
        const info = await provider.getInfo(source);
        const track = info.tracks.find((t) => t.lang === "en" && t.kind === "manual");
        if (!track) throw new Error("no English track");
        const segments = await provider.fetchTrack(info, track);
        times.push(performance.now() - t0);
        if (segments.length !== 3) throw new Error(`expected 3 segments, got ${segments.length}`);
        requests = fake.requests.length;
        servedBy = info.servedBy ?? "";
      }
      results[`${c.label} (${servedBy}): upstream requests`] = requests;
      results[`${c.label}: median wall ms (${c.runs} runs)`] = median(times);
    }
  } finally {
    await mitm.close();
    await fake.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [label, value] of Object.entries(await benchYoutube()))
    console.log(`${label.padEnd(64)} ${Number.isInteger(value) ? value : value.toFixed(1)}`);
}
