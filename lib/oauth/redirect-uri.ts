// Which redirect URIs a client may register, and when a requested one matches a registered one.
// RFC 6749 3.1.2 (absolute, no fragment), RFC 8252 7.1 (private-use schemes such as com.example.app:/cb),
// 7.3 (http only for loopback, where any port matches), and OAuth 2.1's exact string comparison.
// Only canonical URIs (exactly what the WHATWG URL parser, and so every browser, serialises them as) are
// registered or matched: `https:evil.example/cb` or `https:///cb` would be stored as typed and then
// followed by the browser to a host the consent page never showed.

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);

function parse(value: string): URL | null {
  if (value.length > 2048 || /[\u0000-\u0020\u007f\\]/.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/** Why a redirect URI cannot be registered, or null if it can. */
export function redirectUriProblem(value: string): string | null {
  const url = parse(value);
  if (!url) return `'${value.slice(0, 100)}' is not an absolute URI.`;
  if (url.href !== value)
    return `'${value.slice(0, 100)}' is not in canonical form; register '${url.href.slice(0, 200)}' if that is what you mean.`;
  if (url.hash || value.includes("#")) return "A redirect URI must not have a fragment.";
  if (url.username || url.password) return "A redirect URI must not carry credentials.";
  if (url.protocol === "https:") return url.hostname ? null : "An https redirect URI needs a host.";
  if (url.protocol === "http:")
    return isLoopbackRedirect(url)
      ? null
      : "http redirect URIs are allowed only for loopback (127.0.0.1, [::1], localhost); use https.";
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `The scheme ${url.protocol} cannot be a redirect URI.`;
  // RFC 8252 7.1: a native app's private-use scheme is a reverse domain name (it contains a dot).
  return url.protocol.slice(0, -1).includes(".")
    ? null
    : "A custom scheme must be a reverse domain name (e.g. com.example.app:/callback).";
}

/** The registered URI a requested redirect URI stands for: exact match, or loopback with another port. */
export function matchRedirectUri(requested: string, registered: readonly string[]): string | null {
  const url = parse(requested);
  // Canonical forms only (a row stored before registration required them never matches in another spelling).
  if (!url || url.href !== requested) return null;
  if (registered.includes(requested)) return requested;
  // Only a requested URI already in its canonical form (no dot segments, default ports or other
  // spellings the parser would rewrite) is compared with the port put aside.
  if (!isLoopbackRedirect(url) || url.username || url.password || url.hash || requested !== canonical(url, true))
    return null;
  for (const candidate of registered) {
    const known = parse(candidate);
    if (known && isLoopbackRedirect(known) && canonical(known, false) === canonical(url, false)) return requested;
  }
  return null;
}

function canonical(url: URL, withPort: boolean): string {
  return `${url.protocol}//${withPort ? url.host : url.hostname}${url.pathname}${url.search}`;
}
