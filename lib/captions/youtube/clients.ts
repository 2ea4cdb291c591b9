import type { Env } from "@/lib/env";

/**
 * The InnerTube clients the player call tries, in order (`YOUTUBE_CLIENTS`: lib/env keeps its text, read here; a bad
 * one stops the start, lib/app/check-settings.ts).
 *
 * Default, from the evidence of 2025–2026: yt-dlp 2026.08.19 asks `visionos` first and then `web`
 * (`_DEFAULT_CLIENTS = ('visionos', 'web')`, `visionos` needs neither the JS player nor a PO token);
 * `android_vr` was its first client until August 2026 and still lists captions; WEB needs a PO token
 * (UNPLAYABLE, or caption URLs marked `exp=xpe` that answer an empty 200 without one), so it comes last
 * and is only useful with YOUTUBE_POT_PROVIDER_URL. youtubei.js 18.1.0 knows all three.
 */
/** youtubei.js's client names (its `InnerTubeClient` type, which the package does not export). */
export type InnerTubeClient =
  | "IOS"
  | "WEB"
  | "MWEB"
  | "ANDROID"
  | "ANDROID_VR"
  | "VISIONOS"
  | "YTMUSIC"
  | "YTMUSIC_ANDROID"
  | "YTSTUDIO_ANDROID"
  | "TV"
  | "TV_SIMPLY"
  | "TV_EMBEDDED"
  | "YTKIDS"
  | "WEB_EMBEDDED"
  | "WEB_CREATOR";

export const DEFAULT_YOUTUBE_CLIENTS: readonly InnerTubeClient[] = ["VISIONOS", "ANDROID_VR", "WEB"];

/** The clients youtubei.js can speak as (its SUPPORTED_CLIENTS). */
export const KNOWN_CLIENTS: readonly InnerTubeClient[] = [
  "IOS",
  "WEB",
  "MWEB",
  "ANDROID",
  "ANDROID_VR",
  "VISIONOS",
  "YTMUSIC",
  "YTMUSIC_ANDROID",
  "YTSTUDIO_ANDROID",
  "TV",
  "TV_SIMPLY",
  "TV_EMBEDDED",
  "YTKIDS",
  "WEB_EMBEDDED",
  "WEB_CREATOR",
];

/** Browser clients: YouTube wants a PO token on their player calls and caption URLs. */
const POT_CLIENTS: ReadonlySet<InnerTubeClient> = new Set<InnerTubeClient>([
  "WEB",
  "MWEB",
  "WEB_EMBEDDED",
  "WEB_CREATOR",
]);

export function needsPoToken(client: InnerTubeClient): boolean {
  return POT_CLIENTS.has(client);
}

/** "visionos, android_vr,WEB" → ["VISIONOS", "ANDROID_VR", "WEB"]; throws naming an unknown client. */
export function parseClientList(list: string): InnerTubeClient[] {
  const out: InnerTubeClient[] = [];
  for (const raw of list.split(",")) {
    const name = raw.trim().toUpperCase();
    if (name === "") continue;
    if (!(KNOWN_CLIENTS as readonly string[]).includes(name))
      throw new Error(`unknown InnerTube client "${raw.trim()}" (known: ${KNOWN_CLIENTS.join(", ")})`);
    if (!out.includes(name as InnerTubeClient)) out.push(name as InnerTubeClient);
  }
  if (out.length === 0) throw new Error("name at least one InnerTube client");
  return out;
}

/** YOUTUBE_CLIENTS as the lookup chain takes it (unset: undefined, the chain's default); throws naming the setting. */
export function youtubeClients(settings: Pick<Env, "YOUTUBE_CLIENTS">): InnerTubeClient[] | undefined {
  if (settings.YOUTUBE_CLIENTS === undefined) return undefined;
  try {
    return parseClientList(settings.YOUTUBE_CLIENTS);
  } catch (err) {
    throw new Error(`YOUTUBE_CLIENTS: ${(err as Error).message}`);
  }
}
