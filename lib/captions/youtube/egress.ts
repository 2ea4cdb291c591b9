/**
 * Which way out a YouTube request takes: one of the configured proxies (YOUTUBE_PROXIES, else
 * OUTBOUND_PROXY), or none. Rotation sits above the outbound module: each proxy gets its own outbound
 * instance (`makeOutbound(proxyUrl)`, the module's own `proxyUrl` option), and this module only
 * chooses which one a request uses. A proxy that met a block (bot check, 429, an empty track) cools
 * down for `cooldownMs` and is skipped while any other is ready.
 */
import type { Outbound } from "@/lib/http/outbound";

export interface Exit {
  /** The proxy URL, or null for a direct connection. */
  proxy: string | null;
  outbound: Outbound;
  /** A short name for logs and for `served_by` (never the proxy's credentials). */
  label: string;
}

export interface Egress {
  /** The next exit not in `tried`, ready ones first in rotation order; null when every exit was tried. */
  pick(tried: ReadonlySet<string | null>): Exit | null;
  /** This exit met a block: it cools down. */
  block(exit: Exit): void;
  /** Seconds until the first cooling exit is ready again (0 when one is ready now). */
  retryAfterSeconds(): number;
  /** The exit with this label (no rotation). */
  byLabel(label: string): Exit | null;
  /** Whether an exit other than `except` is ready now. */
  hasOtherReady(except: Exit): boolean;
  readonly size: number;
}

export interface EgressOptions {
  proxies: readonly string[];
  makeOutbound(proxyUrl: string | undefined): Outbound;
  cooldownMs: number;
  now?: () => number;
}

function label(proxy: string | null, index: number): string {
  if (proxy === null) return "direct";
  try {
    const u = new URL(proxy);
    return `proxy${index + 1}:${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return `proxy${index + 1}`;
  }
}

export function createEgress(opts: EgressOptions): Egress {
  const now = opts.now ?? Date.now;
  const list: (string | null)[] = opts.proxies.length > 0 ? [...opts.proxies] : [null];
  const exits: Exit[] = list.map((proxy, i) => ({
    proxy,
    outbound: opts.makeOutbound(proxy ?? undefined),
    label: label(proxy, i),
  }));
  const coolUntil = new Map<string | null, number>();
  let cursor = 0;

  return {
    size: exits.length,
    pick(tried) {
      const t = now();
      const order = exits.map((_, i) => exits[(cursor + i) % exits.length] as Exit).filter((e) => !tried.has(e.proxy));
      if (order.length === 0) return null;
      const ready = order.find((e) => (coolUntil.get(e.proxy) ?? 0) <= t);
      const chosen =
        ready ?? order.reduce((a, b) => ((coolUntil.get(a.proxy) ?? 0) <= (coolUntil.get(b.proxy) ?? 0) ? a : b));
      cursor = (exits.indexOf(chosen) + 1) % exits.length;
      return chosen;
    },
    block(exit) {
      coolUntil.set(exit.proxy, now() + opts.cooldownMs);
    },
    byLabel(l) {
      return exits.find((e) => e.label === l) ?? null;
    },
    hasOtherReady(except) {
      const t = now();
      return exits.some((e) => e !== except && (coolUntil.get(e.proxy) ?? 0) <= t);
    },
    retryAfterSeconds() {
      const t = now();
      const waits = exits.map((e) => Math.max(0, (coolUntil.get(e.proxy) ?? 0) - t));
      return Math.ceil(Math.min(...waits) / 1000);
    },
  };
}
