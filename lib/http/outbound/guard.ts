/**
 * SSRF guard: the synchronous half. `checkUrl` vets a URL's shape and literal host before anything is
 * sent; `isPublicAddress` vets every address a host name resolves to (fetch.ts calls it at connect time).
 *
 * Pure: no I/O, no environment variables.
 */
import { isIP } from "node:net";

import ipaddr from "ipaddr.js";

import { OutboundError } from "./errors";

export interface CheckUrlOptions {
  /** When given, only these ports (after applying the scheme's default: 80/443) are accepted. */
  allowedPorts?: readonly number[];
  /**
   * Test hook: hosts for which internal names and addresses are allowed (e.g. a fake upstream on
   * 127.0.0.1). Receives the normalized host: lower case, no brackets, no trailing dot.
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
 * Parses and vets a user-supplied URL. Returns the WHATWG-normalized URL (numeric hosts such as
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
  // Port 0 names no service: no connection to it can be made (the URL parser accepts it).
  if (url.port === "0") throw new OutboundError("url_not_allowed", "Port 0 is not accepted.");
  if (opts.allowedPorts) {
    const port = effectivePort(url);
    if (!opts.allowedPorts.includes(port)) {
      throw new OutboundError("url_not_allowed", `Port ${port} is not accepted.`);
    }
  }
  checkHost(normalizeHost(url.hostname), opts);
  return url;
}

/** Host as used for checks and DNS: lower case, IPv6 brackets and a trailing dot removed. */
export function normalizeHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  while (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** Vets a normalized host literal (name or IP), without DNS. */
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
      throw new OutboundError(
        "address_not_allowed",
        "That URL's host resolves to a private or reserved network address.",
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Addresses: ranges from ipaddr.js (IANA special-purpose registries), plus the embedded-IPv4 forms
// judged by the IPv4 address inside.
// ---------------------------------------------------------------------------------------------------

/** IPv4 ranges that are an ordinary public host: ipaddr.js's "unicast" (not private, loopback, reserved…). */
function isPublicV4(addr: ipaddr.IPv4): boolean {
  return addr.range() === "unicast";
}

function v4From(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

function isPublicV6(addr: ipaddr.IPv6): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = addr.parts;
  // ::ffff:a.b.c.d (IPv4-mapped): judged by the IPv4 address inside.
  if (addr.isIPv4MappedAddress()) return isPublicV4(addr.toIPv4Address());
  // ::a.b.c.d (IPv4-compatible, deprecated; ipaddr.js calls it unicast), which also covers :: and ::1.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    if (g6 === 0) return false; // ::/112 holds :: and ::1 and nothing routable
    return isPublicV4(v4From(g6, g7));
  }
  // 64:ff9b::/96 NAT64 well-known prefix: judged by the embedded IPv4.
  if (addr.match(NAT64_WELL_KNOWN)) return isPublicV4(v4From(g6, g7));
  // 2002::/16 6to4: the IPv4 address is in groups 1-2.
  if (g0 === 0x2002) return isPublicV4(v4From(g1, g2));
  // Everything else must be global unicast 2000::/3 that ipaddr.js knows no special purpose for
  // (excludes Teredo, ORCHID, documentation 2001:db8::/32 and 3fff::/20, benchmarking, ULA, link-local…).
  return (g0 & 0xe000) === 0x2000 && addr.range() === "unicast";
}

/** Eight 16-bit groups of an IPv6 address (zone id already removed), or null. */
export function parseIPv6(s: string): number[] | null {
  if (isIP(s) !== 6) return null;
  return ipaddr.IPv6.parse(s).parts;
}

/**
 * True only for an address that is an ordinary public internet host. Anything unparseable is
 * not public. Accepts IPv6 with or without brackets and with a zone id. IPv4 must be a dotted quad
 * (node:net's isIP; ipaddr.js alone would also take "0x7f.1" and the like).
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== "string") return false;
  let s = ip.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const family = isIP(s);
  if (family === 4) return isPublicV4(ipaddr.IPv4.parse(s));
  if (family === 6) {
    if (s.includes("%")) return false; // a zone id only makes sense for link-local / local scopes
    return isPublicV6(ipaddr.IPv6.parse(s));
  }
  return false;
}
