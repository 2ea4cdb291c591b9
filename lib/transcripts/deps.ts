import { env, type Env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import { createYoutubeProvider, type YoutubeProviderOptions } from "@/lib/captions/youtube/provider";
import { createYtDlpProvider, youtubeYtDlpArgs } from "@/lib/captions/ytdlp/provider";
import { createPotProvider } from "@/lib/captions/youtube/pot";
import { readCookieFile } from "@/lib/captions/youtube/cookies";
import { youtubeClients } from "@/lib/captions/youtube/clients";
import { createOutbound, type Outbound } from "@/lib/http/outbound";
import type { CaptionProvider } from "@/lib/captions/types";
import type { CaptionDeps } from "@/lib/transcripts/fetch-captions";
import type { ResolveDeps } from "@/lib/transcripts/resolve-source";

export type TranscriptDeps = CaptionDeps & ResolveDeps;

let deps: TranscriptDeps | undefined;

/**
 * How YouTube is reached, from settings (fake origin, proxies, clients, PO tokens, cookies, retries, budget):
 * the caption lookup's, and the setup check's (lib/health/run-setup-checks.ts), so the check takes the same way.
 */
export function youtubeProviderOptions(settings: Env, outbound: Outbound): YoutubeProviderOptions {
  const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  return {
    outbound,
    innertubeBaseUrl: settings.YOUTUBE_BASE_URL,
    proxyUrl: settings.OUTBOUND_PROXY,
    proxies: settings.YOUTUBE_PROXIES,
    makeOutbound: (proxyUrl) =>
      createOutbound({ proxyUrl, ...(exempt.size > 0 ? { allowPrivateFor: (host: string) => exempt.has(host) } : {}) }),
    clients: youtubeClients(settings),
    pot: settings.YOUTUBE_POT_PROVIDER_URL
      ? createPotProvider({ baseUrl: settings.YOUTUBE_POT_PROVIDER_URL })
      : undefined,
    cookie: settings.YOUTUBE_COOKIES_FILE ? readCookieFile(settings.YOUTUBE_COOKIES_FILE) : undefined,
    blockRetries: settings.YOUTUBE_BLOCK_RETRIES,
    cooldownMs: settings.YOUTUBE_PROXY_COOLDOWN_SECONDS * 1000,
    timeoutMs: settings.YOUTUBE_LOOKUP_TIMEOUT_SECONDS * 1000,
  };
}

/** The real sources, from settings: youtubei.js for YouTube, yt-dlp for the other platforms. */
export function transcriptDeps(): TranscriptDeps {
  if (deps) return deps;
  const settings = env();
  const outbound = appOutbound();
  const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  const ytdlp = createYtDlpProvider({ outbound, binary: settings.YTDLP_PATH });
  const youtube = createYoutubeProvider({
    ...youtubeProviderOptions(settings, outbound),
    // The second path: yt-dlp's YouTube extractor, with the same PO token provider and cookies. Off when
    // YOUTUBE_BASE_URL points InnerTube at a fake: yt-dlp's YouTube URLs cannot follow it (tests reach the
    // fake through a TLS-terminating proxy instead, lib/captions/youtube/ytdlp-fallback.int.test.ts).
    fallback: settings.YOUTUBE_BASE_URL
      ? undefined
      : createYtDlpProvider({
          outbound,
          binary: settings.YTDLP_PATH,
          platforms: new Set(["youtube"]),
          extraArgs: youtubeYtDlpArgs({
            potProviderUrl: settings.YOUTUBE_POT_PROVIDER_URL,
            cookiesFile: settings.YOUTUBE_COOKIES_FILE,
          }),
        }),
  });
  const providers: Partial<Record<string, CaptionProvider>> = {
    youtube,
    x: ytdlp,
    tiktok: ytdlp,
    facebook: ytdlp,
    instagram: ytdlp,
    rednote: ytdlp,
    vimeo: ytdlp,
  };
  deps = {
    outbound,
    allowPrivateFor: exempt.size > 0 ? (host) => exempt.has(host) : undefined,
    providerFor: (platform) => providers[platform] ?? null,
    cacheHours: settings.TRANSCRIPT_CACHE_HOURS,
  };
  return deps;
}
