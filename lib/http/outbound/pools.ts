// Connection pools: one per (origin, checked IP), each opening its sockets to exactly that address, so no second
// DNS lookup decides where a request goes; plain http through a proxy shares one pool per proxy. The least
// recently used pool is closed past maxPools.
import net from "node:net";

import { Pool } from "undici";

import { bracket, connectProxy, openSocket, type ProxyConfig, type TlsCa } from "./connect";
import { effectivePort, normalizeHost } from "./guard";
import { DEFAULTS } from "./options";

export interface Pools {
  /** The pool for a request to `url` at the checked `ip`, and the request-target to send. */
  route(url: URL, ip: string): { dispatcher: Pool; path: string; viaProxy: ProxyConfig | null };
  /** Closes every pool (a later route opens new ones). */
  closeAll(): Promise<void>;
}

export function createPools({
  proxy,
  ca,
  connectTimeoutMs,
}: {
  proxy: ProxyConfig | null;
  ca: TlsCa;
  connectTimeoutMs: number;
}): Pools {
  const pools = new Map<string, Pool>();

  function pool(key: string, origin: string, open: () => Promise<net.Socket>): Pool {
    const found = pools.get(key);
    if (found && !found.closed && !found.destroyed) {
      // Map order is insertion order: move to the end (most recently used).
      pools.delete(key);
      pools.set(key, found);
      return found;
    }
    const created = new Pool(origin, {
      connections: DEFAULTS.connectionsPerPool,
      keepAliveTimeout: DEFAULTS.keepAliveTimeoutMs,
      keepAliveMaxTimeout: 30_000,
      connect: (_opts, callback) => {
        open().then(
          (socket) => callback(null, socket),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
        );
      },
    });
    pools.set(key, created);
    while (pools.size > DEFAULTS.maxPools) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
      pools.delete(oldestKey);
      oldest.close().catch(() => undefined);
    }
    return created;
  }

  function route(url: URL, ip: string): { dispatcher: Pool; path: string; viaProxy: ProxyConfig | null } {
    const port = effectivePort(url);
    const pathAndQuery = `${url.pathname}${url.search}`;
    if (proxy && url.protocol === "http:") {
      // Plain http through the proxy: absolute-form, naming the address we checked, never a name the
      // proxy would resolve itself.
      const dispatcher = pool(`proxy|${proxy.url.href}`, proxy.url.origin, () =>
        connectProxy(proxy, { ca, timeoutMs: connectTimeoutMs }),
      );
      return { dispatcher, path: `http://${bracket(ip)}:${port}${pathAndQuery}`, viaProxy: proxy };
    }
    const host = normalizeHost(url.hostname);
    const servername = url.protocol === "https:" ? (net.isIP(host) !== 0 ? undefined : host) : false;
    const dispatcher = pool(`${url.origin}|${ip}`, url.origin, () =>
      openSocket(ip, port, servername, { proxy, ca, timeoutMs: connectTimeoutMs }),
    );
    return { dispatcher, path: pathAndQuery, viaProxy: null };
  }

  async function closeAll(): Promise<void> {
    const all = [...pools.values()];
    pools.clear();
    await Promise.all(all.map((p) => p.close().catch(() => undefined)));
  }

  return { route, closeAll };
}
