/**
 * YOUTUBE_COOKIES_FILE: a Netscape cookies.txt (what browser exporters and yt-dlp's --cookies write).
 * Only cookies for youtube.com and google.com domains are kept, as one Cookie header value.
 */
import { readFileSync } from "node:fs";

const DOMAINS = /(^|\.)(youtube\.com|google\.com)$/i;

/** The Cookie header value for YouTube from a Netscape cookies file's text; "" when there is none. */
export function cookieHeaderFromNetscape(text: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const pairs: string[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line.startsWith("#HttpOnly_")) line = line.slice("#HttpOnly_".length);
    else if (line.startsWith("#") || line.trim() === "") continue;
    const fields = line.split("\t");
    if (fields.length < 7) continue;
    const [domain, , , , expires, name, value] = fields as [string, string, string, string, string, string, string];
    if (!DOMAINS.test(domain.replace(/^\./, ""))) continue;
    const exp = Number(expires);
    if (Number.isFinite(exp) && exp > 0 && exp < nowSeconds) continue;
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) || /[;\r\n]/.test(value)) continue;
    pairs.push(`${name}=${value}`);
  }
  return pairs.join("; ");
}

export function readCookieFile(path: string): string {
  return cookieHeaderFromNetscape(readFileSync(path, "utf8"));
}
