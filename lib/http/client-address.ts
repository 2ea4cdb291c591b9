import { randomBytes } from "node:crypto";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env";

// The client's address, for per-address rate limits, as far as it can be known without trusting the
// client. Next.js's route handlers do not expose the socket: its server only sets X-Forwarded-For to
// the peer address when the client sent none (`??=` in base-server), so the header alone cannot say
// whether the client wrote it. Hence TRUSTED_PROXY_HOPS:
// - 0 (no proxy we trust): forwarding headers are ignored. The key is the socket's peer address, which
//   the request guard (request-guard.ts, on Node's server before Next.js) copies into a header whose name
//   holds a per-process random token, after removing any header of that family the client sent: a client
//   can neither forge nor guess it. Where the guard does not run, every anonymous client shares one identity.
// - N: our N proxies each append the address they saw; the Nth entry from the right is the one our
//   outermost proxy saw. Entries further left were written by the client and are ignored.
// A missing, short or malformed chain also falls back to the shared identity (fail closed), as in
// formbricks' apps/web/lib/utils/client-ip.ts.

export const UNTRUSTED_CLIENT = "untrusted-client";

const PEER_HEADER_PREFIX = "x-verbatim-peer";
const PEER_HEADER = Symbol.for("verbatim.peerHeader");

/** The name of the header carrying the socket's peer address: one per process, shared by every bundle. */
export function peerHeaderName(): string {
  const store = globalThis as { [PEER_HEADER]?: string };
  return (store[PEER_HEADER] ??= `${PEER_HEADER_PREFIX}-${randomBytes(12).toString("hex")}`);
}

/**
 * Headers a reverse proxy or tunnel adds (nginx, Caddy, Apache, cloudflared, ngrok, load balancers): one of them
 * on a request as it arrived means it came through something that forwards other machines' requests.
 */
const FORWARDING_HEADERS = [
  "forwarded",
  "via",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
  "cf-connecting-ip",
  "true-client-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "fastly-client-ip",
];

/**
 * Whether a request, as it arrived on the socket (Node's lower-cased headers, before Next.js adds its own
 * X-Forwarded-* to every request), shows a proxy's hand: a forwarding header, or a Host that is not a
 * loopback name (a tunnel passes on the public name the client used). A proxy that sends neither (nginx's
 * bare `proxy_pass`) cannot be told from a browser on this machine.
 */
export function arrivedThroughProxy(headers: Record<string, string | string[] | undefined>): boolean {
  if (FORWARDING_HEADERS.some((name) => headers[name] !== undefined)) return true;
  const host = headers.host;
  if (typeof host !== "string" || host === "") return false;
  const name = (/^\[([^\]]*)\](?::\d*)?$/.exec(host)?.[1] ?? host.replace(/:\d*$/, "")).toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return false;
  return !(ipaddr.isValid(name) && ipaddr.process(name).range() === "loopback");
}

const proxiedHeaderName = () => `${peerHeaderName()}-proxied`;

/**
 * On Node's request, before any app code: drop client-sent peer headers and record the socket's address, and
 * whether the request came through a proxy (arrivedThroughProxy).
 */
export function stampPeerAddress(request: {
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}): void {
  for (const name of Object.keys(request.headers))
    if (name.startsWith(PEER_HEADER_PREFIX)) delete request.headers[name];
  const peer = request.socket?.remoteAddress;
  if (!peer) return;
  if (arrivedThroughProxy(request.headers)) request.headers[proxiedHeaderName()] = "1";
  request.headers[peerHeaderName()] = peer;
}

/**
 * Whether the request is from a person at this machine: a loopback connection that came through no proxy, as
 * the request guard saw it. null where the guard did not run.
 */
export function fromThisMachine(headers: Pick<Headers, "get">): boolean | null {
  const loopback = peerIsLoopback(headers);
  if (loopback === null) return null;
  return loopback && headers.get(proxiedHeaderName()) === null;
}

/**
 * Whether the request came over a loopback connection, as the request guard saw its socket: true or false, or
 * null where the guard did not run (nothing reliable to say; X-Forwarded-For is the client's to write).
 */
export function peerIsLoopback(headers: Pick<Headers, "get">): boolean | null {
  const peer = headers.get(peerHeaderName());
  if (!peer) return null;
  const host = peer.replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

/** What clientAddress reads of a request's headers (a WHATWG Headers, or the request guard's view of Node's). */
export type HeaderReader = Pick<Headers, "get">;

export function clientAddress(headers: HeaderReader, hops = env().TRUSTED_PROXY_HOPS): string {
  if (hops <= 0) {
    const peer = headers.get(peerHeaderName());
    return (peer && canonicalAddress(peer)) || UNTRUSTED_CLIENT;
  }
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length < hops) return UNTRUSTED_CLIENT;
  return canonicalAddress(entries[entries.length - hops]) ?? UNTRUSTED_CLIENT;
}

/**
 * One spelling per client: IPv4 as dotted quad (also when IPv4-mapped or sent with a port), IPv6 as its
 * /64 network, since one subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function canonicalAddress(value: string): string | null {
  let host = value;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) host = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(value)) host = value.slice(0, value.lastIndexOf(":"));
  if (!ipaddr.isValid(host)) return null;
  // Strict forms only: ipaddr also accepts "127.1" and hex/octal IPv4 spellings, which would be new keys.
  if (!ipaddr.IPv4.isValidFourPartDecimal(host) && !ipaddr.IPv6.isValid(host)) return null;
  const address = ipaddr.process(host);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
