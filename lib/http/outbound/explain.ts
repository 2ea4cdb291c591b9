import { OutboundError } from "./errors";

/**
 * A network failure on a URL a person gave (a feed, a direct audio link), said about that URL's host: what to
 * check first is the link, and only when every link fails this server's DNS, proxy or CA settings. The codes
 * stay the closed list's (upstream_dns_failed, upstream_refused, upstream_tls_failed); anything else is
 * returned as it is. The YouTube path has its own sentences (lib/captions/youtube/provider.ts unreachableError),
 * which name YOUTUBE_PROXIES: a user's URL never does.
 */
export function explainForUrl(error: OutboundError, url: string | URL): OutboundError {
  const host = error.host ?? hostOf(url);
  const sentence = SENTENCES[error.code as keyof typeof SENTENCES]?.(host);
  if (!sentence) return error;
  const explained = new OutboundError(error.code, sentence, { cause: error });
  explained.host = host;
  return explained;
}

const SENTENCES = {
  upstream_dns_failed: (host: string) =>
    `The name ${host} could not be found (DNS failed): check that the link's host is spelled right and still exists. If every link fails, this server has no working DNS or no internet connection, which its operator has to fix.`,
  upstream_refused: (host: string) =>
    `${host} refused the connection: nothing answers at that address and port, so check the link. If every link fails, the proxy this server sends requests through (OUTBOUND_PROXY) is down or at the wrong address.`,
  upstream_tls_failed: (host: string) =>
    `No secure connection to ${host}: its certificate was not accepted (expired, self-signed or for another name), so check the link's address. If every https link fails, this server sits behind an intercepting proxy whose CA its operator must trust (NODE_EXTRA_CA_CERTS).`,
} as const;

function hostOf(url: string | URL): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, "$1") || "that host";
  } catch {
    return "that host";
  }
}
