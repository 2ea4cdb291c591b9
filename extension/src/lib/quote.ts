// A quote as it is copied: the line in quotation marks, where it came from, and a link that opens the source at
// that moment.

/** 75 → "1:15", 3725 → "1:02:05". */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The source at `seconds`: YouTube's own `&t=…s` for a YouTube video, else the media fragment `#t=…` (which
 * browsers honour on audio and video addresses), replacing any the address had.
 */
export function momentLink(
  source: { platform: string; video_id: string; source_url: string },
  seconds: number,
): string {
  const at = Math.max(0, Math.floor(seconds));
  if (source.platform === "youtube" && YOUTUBE_ID.test(source.video_id))
    return `https://www.youtube.com/watch?v=${source.video_id}&t=${at}s`;
  let url: URL;
  try {
    url = new URL(source.source_url);
  } catch {
    return source.source_url;
  }
  url.hash = `t=${at}`;
  return url.href;
}

/** “The line.” — Title (1:15) https://… */
export function quoteText(line: { text: string; start: number }, title: string | null, link: string): string {
  const from = title && title.trim() ? ` — ${title.trim()}` : "";
  return `“${line.text.trim()}”${from} (${clock(line.start)}) ${link}`;
}
