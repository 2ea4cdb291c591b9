// Redirects, followed by hand so that every hop's URL goes through the guard: credentials stay with their
// origin, and 303 (and 301/302 after a POST) turn the request into a GET as browsers do.
import { OutboundError } from "./errors";

/** One request of a call: the first, or the one a redirect leads to. */
export interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * The request a redirect to `location` leads to, its URL checked by `check`; throws too_many_redirects once
 * `redirects` (those already followed) reaches `maxRedirects`.
 */
export function nextHop(
  hop: Hop,
  status: number,
  location: string,
  redirects: number,
  maxRedirects: number,
  check: (raw: string) => URL,
): Hop {
  if (redirects >= maxRedirects) {
    throw new OutboundError("too_many_redirects", `The upstream server redirected more than ${maxRedirects} times.`);
  }
  let next: URL;
  try {
    next = new URL(location, hop.url);
  } catch {
    throw new OutboundError("upstream_failed", "The upstream server sent an invalid redirect.");
  }
  next = check(next.href);
  const nextHeaders = { ...hop.headers };
  if (next.origin !== hop.url.origin) for (const h of CREDENTIAL_HEADERS) delete nextHeaders[h];
  const toGet = status === 303 ? hop.method !== "HEAD" : (status === 301 || status === 302) && hop.method === "POST";
  if (toGet) delete nextHeaders["content-type"];
  return {
    url: next,
    method: toGet ? "GET" : hop.method,
    headers: nextHeaders,
    body: toGet ? undefined : hop.body,
  };
}
