// Where a followed show can be pushed from (W3C WebSub §4, discovery): the hub and the topic a feed names, in its
// response's `Link` headers or in the feed itself (parsed off the event loop with the rest of it); a YouTube
// channel's are known without asking (its Atom feed, at the hub of FOLLOW_PUSH_YOUTUBE_HUB).

export interface PushSource {
  hub: string;
  topic: string;
}

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const MAX_URL = 2048;

function httpUrl(raw: string, base?: string): string | null {
  try {
    const url = new URL(raw, base);
    return (url.protocol === "https:" || url.protocol === "http:") && url.href.length <= MAX_URL ? url.href : null;
  } catch {
    return null;
  }
}

/** RFC 8288 `Link` header values → the first target of each relation asked for (relative targets resolved). */
export function linkRelations(header: string | null, base: string): { hub: string | null; self: string | null } {
  const found = { hub: null as string | null, self: null as string | null };
  if (!header) return found;
  for (const match of header.slice(0, 16_384).matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(match[2]!);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    for (const name of ["hub", "self"] as const)
      if (rels.includes(name) && !found[name]) found[name] = httpUrl(match[1]!.trim(), base);
  }
  return found;
}

/**
 * A fetched feed's hub and topic: the response's `Link` headers first (the spec's first place), else the feed's
 * `rel="hub"` / `rel="self"` links; without a self link the topic is the URL the feed was fetched from. No hub:
 * null (the follow is only polled).
 */
export function discoverFeedPush(
  feed: { hub: string | null; self: string | null },
  linkHeader: string | null,
  fetchedUrl: string,
): PushSource | null {
  const header = linkRelations(linkHeader, fetchedUrl);
  const hub = header.hub ?? (feed.hub ? httpUrl(feed.hub) : null);
  if (!hub) return null;
  const topic = header.self ?? (feed.self ? httpUrl(feed.self) : null) ?? fetchedUrl;
  return { hub, topic };
}

/** A YouTube channel's push: the topic is its videos feed (playlists have none: they are only polled). */
export function youtubeChannelPush(channelId: string | null, hub: string): PushSource | null {
  if (!channelId || !CHANNEL_ID.test(channelId)) return null;
  return { hub, topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId}` };
}

/** The channel id in a canonical channel URL (`/channel/UC…/videos`), or null (a handle: yt-dlp's listing says). */
export function channelIdOfUrl(url: string): string | null {
  const match = /^https:\/\/www\.youtube\.com\/channel\/(UC[A-Za-z0-9_-]{22})\//.exec(url);
  return match?.[1] ?? null;
}
