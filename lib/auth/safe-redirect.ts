import { env } from "@/lib/env";

// THE rule for every redirect after sign-in (the sign-in page and its action, Auth.js's redirect
// callback, proxy.ts, and the device and consent pages to come): a target is followed only when it is
// one of our own pages, i.e. same origin as APP_URL after the URL parser has normalized it. Anything
// else, or anything a parser could read two ways, falls back to the dashboard.

export const DEFAULT_REDIRECT = "/dashboard";

// Control characters (the URL parser silently drops tabs and newlines), backslashes (read as "/" in
// http URLs) and percent-encoded slashes or backslashes (decoded once more by some hop on the way).
const AMBIGUOUS = /[\u0000-\u001f\u007f\\]|%(?:2f|5c)/i;

/**
 * The path (with query and hash) to go to after sign-in, or `fallback`. Accepts a site-relative path
 * ("/dashboard/keys?x=1") or an absolute URL on APP_URL's origin; returns it as a path, never an origin.
 */
export function safeCallbackPath(value: unknown, fallback = DEFAULT_REDIRECT, appUrl = env().APP_URL): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048 || AMBIGUOUS.test(value)) return fallback;
  const app = new URL(appUrl);
  // Only "/path" or "http(s)://host/path" (checked against APP_URL's origin once parsed): this refuses
  // "//host", "https:host", "javascript:", "data:", "mailto:" and other scheme-relative forms.
  const relative = value.startsWith("/") && !value.startsWith("//");
  const absolute = /^https?:\/\/[^/]/i.test(value);
  if (!relative && !absolute) return fallback;
  let target: URL;
  try {
    target = new URL(value, app);
  } catch {
    return fallback;
  }
  if (target.origin !== app.origin || target.username || target.password) return fallback;
  const path = `${target.pathname}${target.search}${target.hash}`;
  // Dot segments can normalize "/..//host" into "//host", a protocol-relative target once it is used.
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  return path;
}

/** The same rule as an absolute URL on APP_URL, for callers that need one (Auth.js's redirect callback). */
export function safeCallbackUrl(value: unknown, fallback = DEFAULT_REDIRECT, appUrl = env().APP_URL): string {
  return new URL(safeCallbackPath(value, fallback, appUrl), appUrl).toString();
}
