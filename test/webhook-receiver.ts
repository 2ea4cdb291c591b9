import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A webhook receiver for tests: records every request and checks its signature with the reference
// `standardwebhooks` library, against the secrets the test registers for each path.

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The verified payload, or null when the signature did not verify with the path's secret. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  at: number;
}

export interface Receiver {
  origin: string;
  received: Received[];
  /** Which secret verifies requests to `path`. */
  secrets: Map<string, string>;
  /** The status for the next request to `path` (default 200); `"hang"` never answers. */
  respond: (path: string, status: (n: number) => number | "hang") => void;
  onRequest?: (request: Received) => void;
  forPath(path: string): Received[];
  waitFor(what: string, predicate: (all: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const responders = new Map<string, (n: number) => number | "hang">();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0]!;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let payload: Received["payload"] = null;
      const secret = secrets.get(path);
      if (secret) {
        try {
          payload = new Webhook(secret).verify(body, headers) as Received["payload"];
        } catch {
          payload = null;
        }
      }
      const request = { path, headers, body, payload, at: Date.now() };
      received.push(request);
      receiver.onRequest?.(request);
      const status = (responders.get(path) ?? (() => 200))(received.filter((r) => r.path === path).length);
      if (status === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: Receiver = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    secrets,
    respond: (path, status) => responders.set(path, status),
    forPath: (path) => received.filter((r) => r.path === path),
    async waitFor(what, predicate, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (predicate(received)) return received;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(
        `webhook receiver: timed out waiting for ${what}; got ${received.map((r) => `${r.path} ${r.payload?.type ?? "(unverified)"}`).join(", ")}`,
      );
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}
