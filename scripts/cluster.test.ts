import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "./cluster";

// The balancer of `npm run cluster` against a target that closes a kept-alive connection as the next request
// arrives on it (what an app's keep-alive timeout does at the wrong moment).
let target: http.Server | undefined;
let balancer: Balancer | undefined;

afterEach(async () => {
  await balancer?.close();
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
  target = balancer = undefined;
});

async function start(): Promise<{ served: string[] }> {
  const served: string[] = [];
  let requests = 0;
  target = http.createServer((req, res) => {
    // The second request is the first sent on a reused connection: it is reset unanswered.
    if (++requests === 2) return void req.socket.destroy();
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      served.push(`${req.method} ${req.url} ${body}`.trim());
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => target!.listen(0, "127.0.0.1", resolve));
  balancer = await startBalancer(0, [`http://127.0.0.1:${(target.address() as AddressInfo).port}`]);
  return { served };
}

/** Through the balancer, whose kept-alive connection towards the target the second request reuses. */
async function send(method: string, path: string, body?: string): Promise<number> {
  const res = await fetch(`${balancer!.url}${path}`, { method, body });
  await res.text();
  return res.status;
}

/** A raw request through the balancer, with headers fetch may not set; answers the status and the headers. */
function sendRaw(headers: http.OutgoingHttpHeaders): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${balancer!.url}/raw`, { headers, agent: false }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve({ status: answer.statusCode!, headers: answer.headers }));
    });
    request.on("error", reject).end();
  });
}

describe("the cluster's balancer", () => {
  it("keeps each connection's headers to its own side", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    target = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { connection: "keep-alive, x-app-hop", "keep-alive": "timeout=5", "x-app-hop": "1" });
      res.end("ok");
    });
    await new Promise<void>((resolve) => target!.listen(0, "127.0.0.1", resolve));
    balancer = await startBalancer(0, [`http://127.0.0.1:${(target.address() as AddressInfo).port}`]);

    const answer = await sendRaw({ connection: "close, x-client-hop", "x-client-hop": "1", "x-kept": "yes" });
    expect(answer.status).toBe(200);
    expect(seen[0]!["x-kept"]).toBe("yes");
    expect(seen[0]!["x-client-hop"]).toBeUndefined();
    // The balancer's own kept-alive connection, not the client's close.
    expect(seen[0]!.connection).toBe("keep-alive");
    expect(answer.headers["x-app-hop"]).toBeUndefined();
    expect(answer.headers["keep-alive"]).toBeUndefined();
  });

  it("sends a GET once more when the kept-alive connection it used was reset", async () => {
    const { served } = await start();
    expect(await send("GET", "/first")).toBe(200);
    expect(await send("GET", "/second")).toBe(200);
    expect(served).toEqual(["GET /first", "GET /second"]);
  });

  it("does not replay a POST: the reset is a 502", async () => {
    const { served } = await start();
    expect(await send("GET", "/first")).toBe(200);
    expect(await send("POST", "/pay", "once")).toBe(502);
    expect(served).toEqual(["GET /first"]);
  });
});
