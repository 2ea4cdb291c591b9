/**
 * A fake of Hugging Face's file host for a model repository's files: `GET /<repo>/resolve/<revision>/<path>` answers the
 * file (200, its length), anything else 404 "Entry not found" as the real host does. A file's bytes can be replaced
 * (a corrupt mirror), and the host can hold every response without answering (a stalled line). Counts requests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeHub {
  baseUrl: string;
  requests: string[];
  /** Serve these bytes for `path` from now on. */
  serve(path: string, content: Buffer): void;
  /** Hold every response from now on: its head is never sent. */
  stall(): void;
  close(): Promise<void>;
}

export async function startFakeHub(repo: string, revision: string, files: Record<string, Buffer>): Promise<FakeHub> {
  const served = new Map(Object.entries(files).map(([path, bytes]) => [`/${repo}/resolve/${revision}/${path}`, bytes]));
  const requests: string[] = [];
  const held = new Set<http.ServerResponse>();
  let stalled = false;
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (stalled) {
      held.add(res);
      return;
    }
    const body = req.method === "GET" ? served.get(req.url ?? "") : undefined;
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Entry not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    serve: (path, content) => served.set(`/${repo}/resolve/${revision}/${path}`, content),
    stall: () => (stalled = true),
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
