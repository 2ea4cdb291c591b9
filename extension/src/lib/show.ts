// The show a page belongs to, as Verbatim follows shows: a YouTube channel (its link beside the video) or a podcast's
// feed (the one a page announces with <link rel="alternate">). The content script hands over the raw addresses it
// found in the page's markup; only these shapes are believed, so a hostile page can name nothing else.

const MAX_URL = 2048;
const YOUTUBE_HOSTS = new Set(["www.youtube.com", "m.youtube.com", "youtube.com", "music.youtube.com"]);
const CHANNEL_PATH = /^\/(?:@[^/?#]{1,100}|channel\/UC[A-Za-z0-9_-]{22}|c\/[^/?#]{1,100}|user\/[^/?#]{1,100})$/;

function absolute(href: unknown, base: string): URL | null {
  if (typeof href !== "string" || href.length > MAX_URL) return null;
  try {
    const url = new URL(href, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** A YouTube channel's address from a link on a YouTube page (`/@handle`, `/channel/UC…`), canonical; else null. */
export function youtubeChannel(href: unknown, pageUrl: string): string | null {
  const url = absolute(href, pageUrl);
  if (!url || !YOUTUBE_HOSTS.has(url.hostname)) return null;
  const path = url.pathname.replace(/\/(?:videos|featured|streams|shorts)?\/?$/, "");
  return CHANNEL_PATH.test(path) ? `https://www.youtube.com${path}` : null;
}

/** A feed a page announces (an http(s) address of its own), else null. */
export function announcedFeed(href: unknown, pageUrl: string): string | null {
  const url = absolute(href, pageUrl);
  return url && url.href.length <= MAX_URL ? url.href : null;
}

/** The page's show: on YouTube its channel, elsewhere the feed it announces. */
export function showOf(pageUrl: string, found: { channel?: unknown; feed?: unknown }): string | null {
  const page = absolute(pageUrl, pageUrl);
  if (!page) return null;
  if (YOUTUBE_HOSTS.has(page.hostname)) return youtubeChannel(found.channel, page.href);
  return announcedFeed(found.feed, page.href);
}
