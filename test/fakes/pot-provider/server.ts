/**
 * A fake bgutil-ytdlp-pot-provider HTTP server (Brainicism/bgutil-ytdlp-pot-provider, server/README.md):
 * a real node:http server on 127.0.0.1 answering
 *
 *   POST /get_pot  {"content_binding"?: string, "proxy"?, "bypass_cache"?, "challenge"?, "disable_innertube"?,
 *                   "disable_tls_verification"?, "innertube_context"?, "source_address"?}
 *                  → 200 {"poToken": string, "contentBinding": string, "expiresAt": ISO date-time}
 *   GET  /ping     → 200 {"server_uptime": seconds, "version": string}
 *
 * Tokens are random base64url strings; like the real server it caches one per content binding until it
 * expires (6 hours) unless `bypass_cache` is true. Every /get_pot body is recorded. `fail = true` makes
 * /get_pot answer 500 as the real server does when BotGuard fails.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakePotProvider {
  url: string;
  /** Bodies of every POST /get_pot, parsed. */
  calls: Record<string, unknown>[];
  /** Tokens handed out, by content binding. */
  issued: Map<string, string>;
  fail: boolean;
  /** Lifetime of a new token. Default 6 h. */
  ttlMs: number;
  close(): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakePotProvider(): Promise<FakePotProvider> {
  const started = Date.now();
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const fake: FakePotProvider = {
    url: "",
    calls: [],
    issued: new Map(),
    fail: false,
    ttlMs: 6 * 3_600_000,
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://pot").pathname;
      if (path === "/ping" && req.method === "GET")
        return json(res, 200, { server_uptime: (Date.now() - started) / 1000, version: "1.2.2" });
      if (path !== "/get_pot" || req.method !== "POST") return json(res, 404, { error: "Not Found" });
      let body: Record<string, unknown>;
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        body = parsed as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: "Invalid JSON body" });
      }
      fake.calls.push(body);
      if (fake.fail) return json(res, 500, { error: "Failed while generating POT. Error: BotGuard failed to load" });
      const binding =
        typeof body.content_binding === "string" && body.content_binding !== ""
          ? body.content_binding
          : randomBytes(8).toString("base64url");
      const hit = cache.get(binding);
      if (hit && hit.expiresAt > Date.now() && body.bypass_cache !== true) {
        return json(res, 200, {
          poToken: hit.token,
          contentBinding: binding,
          expiresAt: new Date(hit.expiresAt).toISOString(),
        });
      }
      const token = randomBytes(96).toString("base64url");
      const expiresAt = Date.now() + fake.ttlMs;
      cache.set(binding, { token, expiresAt });
      fake.issued.set(binding, token);
      return json(res, 200, { poToken: token, contentBinding: binding, expiresAt: new Date(expiresAt).toISOString() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return fake;
}
