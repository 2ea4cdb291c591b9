/**
 * SSRF guard: the synchronous half. `checkUrl` vets a URL's shape and literal host before anything is
 * sent; `isPublicAddress` vets every address a host name resolves to (fetch.ts calls it at connect time).
 *
 * Pure: no I/O, no environment variables.
 */
import { isIP } from "node:net";

import { OutboundError } from "./errors";

export interface CheckUrlOptions {
  /** When given, only these ports (after applying the scheme's default: 80/443) are accepted. */
  allowedPorts?: readonly number[];
  /**
   * Test hook: hosts for which internal names and addresses are allowed (e.g. a fake upstream on
   * 127.0.0.1). Receives the normalised host: lower case, no brackets, no trailing dot.
   */
  allowPrivateFor?: (host: string) => boolean;
  /** Longest raw URL accepted, in characters. Default 4096. */
  maxLength?: number;
}

export const DEFAULT_MAX_URL_LENGTH = 4096;

const ALLOWED_PROTOCOLS = new Set(["http:", "https:"]);

/** Names refused outright, before any DNS: they can only mean "this machine" or "this network". */
const INTERNAL_NAME_SUFFIXES = ["localhost", "local", "localdomain", "internal", "intranet", "lan", "home.arpa"];

/**
 * Parses and vets a user-supplied URL. Returns the WHATWG-normalised URL (numeric hosts such as
 * `0x7f000001` or `127.1` are already rewritten to dotted IPv4 by the parser, and then checked).
 * Throws OutboundError(url_not_allowed | address_not_allowed).
 */
export function checkUrl(raw: string, opts: CheckUrlOptions = {}): URL {
  const maxLength = opts.maxLength ?? DEFAULT_MAX_URL_LENGTH;
  if (typeof raw !== "string" || raw.length === 0) {
    throw new OutboundError("url_not_allowed", "A URL is required.");
  }
  if (raw.length > maxLength) {
    throw new OutboundError("url_not_allowed", `That URL is longer than ${maxLength} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("url_not_allowed", "That is not a valid URL.");
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    throw new OutboundError("url_not_allowed", "Only http and https URLs are accepted.");
  }
  if (url.username !== "" || url.password !== "") {
    throw new OutboundError("url_not_allowed", "URLs with a user name or password in them are not accepted.");
  }
  if (url.hostname === "") {
    throw new OutboundError("url_not_allowed", "That URL has no host.");
  }
  if (opts.allowedPorts) {
    const port = effectivePort(url);
    if (!opts.allowedPorts.includes(port)) {
      throw new OutboundError("url_not_allowed", `Port ${port} is not accepted.`);
    }
  }
  checkHost(normaliseHost(url.hostname), opts);
  return url;
}

/** Host as used for checks and DNS: lower case, IPv6 brackets and a trailing dot removed. */
export function normaliseHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  while (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** Vets a normalised host literal (name or IP), without DNS. */
export function checkHost(host: string, opts: Pick<CheckUrlOptions, "allowPrivateFor"> = {}): void {
  if (opts.allowPrivateFor?.(host)) return;
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) {
      throw new OutboundError("address_not_allowed", "That URL points to a private or reserved network address.");
    }
    return;
  }
  if (host === "" || !host.includes(".")) {
    // Single-label names ("localhost", "metadata", "redis") only resolve inside a private network.
    throw new OutboundError("address_not_allowed", "That URL points to a local or internal host.");
  }
  for (const suffix of INTERNAL_NAME_SUFFIXES) {
    if (host === suffix || host.endsWith(`.${suffix}`)) {
      throw new OutboundError("address_not_allowed", "That URL points to a local or internal host.");
    }
  }
}

/**
 * Vets the addresses a host resolved to. Every one must be public: a name that resolves to a mix of
 * public and internal addresses is refused (that is what a rebinding attack looks like).
 */
export function checkResolvedAddresses(
  host: string,
  addresses: readonly string[],
  opts: Pick<CheckUrlOptions, "allowPrivateFor"> = {},
): void {
  if (addresses.length === 0) {
    throw new OutboundError("upstream_failed", "The host in that URL could not be resolved.");
  }
  if (opts.allowPrivateFor?.(host)) return;
  for (const a of addresses) {
    if (!isPublicAddress(a)) {
      throw new OutboundError("address_not_allowed", "That URL's host resolves to a private or reserved network address.");
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------------

type V4Range = readonly [base: number, prefix: number];

function v4(dotted: string, prefix: number): V4Range {
  const n = parseIPv4(dotted);
  if (n === null) throw new Error(`bad range ${dotted}`);
  return [n, prefix];
}

/** IPv4 ranges that are never a public internet host (IANA special-purpose registry, conservatively). */
const V4_BLOCKED: readonly V4Range[] = [
  v4("0.0.0.0", 8), // "this network", includes the unspecified 0.0.0.0
  v4("10.0.0.0", 8), // private
  v4("100.64.0.0", 10), // carrier-grade NAT
  v4("127.0.0.0", 8), // loopback
  v4("169.254.0.0", 16), // link-local, cloud metadata 169.254.169.254
  v4("172.16.0.0", 12), // private
  v4("192.0.0.0", 24), // IETF protocol assignments
  v4("192.0.2.0", 24), // TEST-NET-1
  v4("192.88.99.0", 24), // 6to4 relay anycast (deprecated)
  v4("192.168.0.0", 16), // private
  v4("198.18.0.0", 15), // benchmarking
  v4("198.51.100.0", 24), // TEST-NET-2
  v4("203.0.113.0", 24), // TEST-NET-3
  v4("224.0.0.0", 4), // multicast
  v4("240.0.0.0", 4), // reserved, includes broadcast 255.255.255.255
];

/** Strict dotted-quad parse (the form resolvers and WHATWG URL produce). Returns the 32-bit value. */
export function parseIPv4(s: string): number | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const b = Number(p);
    if (b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

function inV4Range(n: number, [base, prefix]: V4Range): boolean {
  if (prefix === 0) return true;
  const shift = 32 - prefix;
  return Math.floor(n / 2 ** shift) === Math.floor(base / 2 ** shift);
}

function isPublicV4(n: number): boolean {
  return !V4_BLOCKED.some((r) => inV4Range(n, r));
}

/** Parses an IPv6 address (zone id already removed) into eight 16-bit groups. */
export function parseIPv6(s: string): number[] | null {
  if (isIP(s) !== 6) return null;
  let text = s.toLowerCase();
  // Trailing embedded IPv4 ("::ffff:1.2.3.4") becomes two groups.
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const n = parseIPv4(tail);
    if (n === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (h: string): number[] => (h === "" ? [] : h.split(":").map((g) => parseInt(g, 16)));
  const head = parse(halves[0] ?? "");
  const rest = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  return groups;
}

function v4From(hi: number, lo: number): number {
  return hi * 0x10000 + lo;
}

function isPublicV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;

  // ::ffff:a.b.c.d (IPv4-mapped): judged by the IPv4 address inside.
  if (firstFiveZero && g5 === 0xffff) return isPublicV4(v4From(g6, g7));
  // ::a.b.c.d (IPv4-compatible, deprecated), which also covers :: and ::1.
  if (firstFiveZero && g5 === 0) {
    if (g6 === 0) return false; // ::/112 holds :: and ::1 and nothing routable
    return isPublicV4(v4From(g6, g7));
  }
  // 64:ff9b::/96 NAT64 well-known prefix: judged by the embedded IPv4.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicV4(v4From(g6, g7));
  }
  // 2002::/16 6to4: the IPv4 address is in groups 1-2.
  if (g0 === 0x2002) return isPublicV4(v4From(g1, g2));

  // Everything else must be global unicast 2000::/3 ...
  if ((g0 & 0xe000) !== 0x2000) return false; // excludes fc00::/7, fe80::/10, fec0::/10, ff00::/8, 64:ff9b:1::/48, 100::/64
  // ... minus the special blocks inside it.
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, benchmarking)
  if (g0 === 0x2001 && g1 === 0xdb8) return false; // 2001:db8::/32 documentation
  if ((g0 & 0xfff0) === 0x3ff0) return false; // 3fff::/20 documentation
  return true;
}

/**
 * True only for an address that is an ordinary public internet host. Anything unparseable is
 * not public. Accepts IPv6 with or without brackets and with a zone id.
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== "string") return false;
  let s = ip.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const family = isIP(s);
  if (family === 4) {
    const n = parseIPv4(s);
    return n !== null && isPublicV4(n);
  }
  if (family === 6) {
    const pct = s.indexOf("%");
    if (pct !== -1) return false; // a zone id only makes sense for link-local / local scopes
    const g = parseIPv6(s);
    return g !== null && isPublicV6(g);
  }
  return false;
}
