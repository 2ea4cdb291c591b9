/**
 * A fake WebSub hub (W3C Recommendation "WebSub", 2018: https://www.w3.org/TR/websub/) for the follows tests:
 * node:http on 127.0.0.1, port 0.
 *
 *   POST /   form-encoded `hub.mode` (subscribe | unsubscribe), `hub.topic`, `hub.callback`, `hub.secret`,
 *            `hub.lease_seconds` (§5.1) → 202 Accepted, 400 with a reason for a malformed request (§5.1.2). Then,
 *            asynchronously, the intent is verified (§5.3): GET the callback with `hub.mode`, `hub.topic`,
 *            `hub.challenge` and (subscribe) `hub.lease_seconds`; the subscription exists (or ends) only when the
 *            answer is 2xx and its body is exactly the challenge.
 *   publish  content distribution (§7): POST the topic's new content to each verified callback, with
 *            `Link: <hub>; rel="hub", <topic>; rel="self"` and `X-Hub-Signature: sha256=<HMAC of the body>` (§8).
 *
 * Calls to callbacks go through `deliver` (default: fetch), so that a test can hand them to route handlers in the
 * same process. `mode` "silent" accepts connections and never answers (a hub that is down behind a proxy);
 * "refuse" answers every subscription request 503; "verify-first" verifies the intent before it answers, then
 * answers 503 (as a hub verifying synchronously whose answer came too late: the subscriber's deadline had passed).
 *
 *   const hub = await startFakeHub({ deliver });   // hub.url = "http://127.0.0.1:<port>/"
 */
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface HubRequest {
  mode: string;
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number | null;
  /** Date.now() when it arrived. */
  at: number;
}

export interface Verification {
  mode: string;
  topic: string;
  callback: string;
  status: number;
  confirmed: boolean;
  at: number;
}

export interface Subscription {
  topic: string;
  callback: string;
  secret: string | null;
  leaseEndsAt: number;
}

export interface Delivery {
  callback: string;
  status: number;
}

export type Deliver = (request: Request) => Promise<Response>;

export interface FakeHub {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** Every request received, whatever the mode (a silent hub's too). */
  received: number;
  requests: HubRequest[];
  verifications: Verification[];
  /** Verified subscriptions, by callback and topic. */
  subscriptions: Map<string, Subscription>;
  /** normal; silent (never answers); refuse (503 to every subscription request); verify-first (verifies, then 503). */
  mode: "normal" | "silent" | "refuse" | "verify-first";
  /** The lease the hub grants (the spec lets it choose); default: what was asked, else 5 days. */
  grantSeconds: number | null;
  /** Resolves once every verification started so far has been answered. */
  settled(): Promise<void>;
  /** Distributes `body` to the topic's subscribers, signed with each one's secret (or `secret` instead). */
  publish(topic: string, body: string, options?: { secret?: string; algorithm?: string }): Promise<Delivery[]>;
  /** Sends a `hub.mode=denied` notification (§5.2) to a callback. */
  deny(topic: string, callback: string, reason: string): Promise<number>;
  close(): Promise<void>;
}

const key = (callback: string, topic: string) => `${callback} ${topic}`;

export async function startFakeHub(options: { deliver?: Deliver } = {}): Promise<FakeHub> {
  const deliver: Deliver = options.deliver ?? ((request) => fetch(request));
  const pending = new Set<Promise<void>>();
  const hanging = new Set<http.ServerResponse>();
  let url = "";

  async function verify(request: HubRequest): Promise<void> {
    const challenge = randomBytes(16).toString("hex");
    const target = new URL(request.callback);
    const lease = hub.grantSeconds ?? request.leaseSeconds ?? 5 * 24 * 3600;
    target.searchParams.set("hub.mode", request.mode);
    target.searchParams.set("hub.topic", request.topic);
    target.searchParams.set("hub.challenge", challenge);
    if (request.mode === "subscribe") target.searchParams.set("hub.lease_seconds", String(lease));
    let status = 0;
    let confirmed = false;
    try {
      const response = await deliver(new Request(target, { method: "GET" }));
      status = response.status;
      confirmed = response.ok && (await response.text()) === challenge;
    } catch {
      status = 0;
    }
    hub.verifications.push({
      mode: request.mode,
      topic: request.topic,
      callback: request.callback,
      status,
      confirmed,
      at: Date.now(),
    });
    if (!confirmed) return;
    const id = key(request.callback, request.topic);
    if (request.mode === "unsubscribe") hub.subscriptions.delete(id);
    else
      hub.subscriptions.set(id, {
        topic: request.topic,
        callback: request.callback,
        secret: request.secret,
        leaseEndsAt: Date.now() + lease * 1000,
      });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      hub.received += 1;
      if (hub.mode === "silent") {
        hanging.add(res);
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      if (hub.mode === "refuse") {
        res.writeHead(503, { "content-type": "text/plain" }).end("Hub is over capacity");
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const mode = form.get("hub.mode") ?? "";
      const topic = form.get("hub.topic") ?? "";
      const callback = form.get("hub.callback") ?? "";
      const lease = form.get("hub.lease_seconds");
      if (!/^(subscribe|unsubscribe)$/.test(mode) || !topic || !/^https?:\/\//.test(callback)) {
        res.writeHead(400, { "content-type": "text/plain" }).end("hub.mode, hub.topic and hub.callback are required");
        return;
      }
      const request: HubRequest = {
        mode,
        topic,
        callback,
        secret: form.get("hub.secret"),
        leaseSeconds: lease ? Number(lease) : null,
        at: Date.now(),
      };
      hub.requests.push(request);
      if (hub.mode === "verify-first") {
        void verify(request).finally(() =>
          res.writeHead(503, { "content-type": "text/plain" }).end("Verified, but answering too late"),
        );
        return;
      }
      res.writeHead(202).end();
      const job = verify(request).finally(() => pending.delete(job));
      pending.add(job);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const hub: FakeHub = {
    url,
    received: 0,
    requests: [],
    verifications: [],
    subscriptions: new Map(),
    mode: "normal",
    grantSeconds: null,
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async publish(topic, body, publishOptions = {}) {
      const out: Delivery[] = [];
      for (const subscription of hub.subscriptions.values()) {
        if (subscription.topic !== topic || subscription.leaseEndsAt < Date.now()) continue;
        const headers: Record<string, string> = {
          "content-type": "application/atom+xml",
          link: `<${url}>; rel="hub", <${topic}>; rel="self"`,
        };
        const secret = publishOptions.secret ?? subscription.secret;
        const algorithm = publishOptions.algorithm ?? "sha256";
        if (secret)
          headers["x-hub-signature"] = `${algorithm}=${createHmac(algorithm, secret).update(body).digest("hex")}`;
        const response = await deliver(new Request(subscription.callback, { method: "POST", headers, body }));
        await response.arrayBuffer();
        out.push({ callback: subscription.callback, status: response.status });
      }
      return out;
    },
    async deny(topic, callback, reason) {
      const target = new URL(callback);
      target.searchParams.set("hub.mode", "denied");
      target.searchParams.set("hub.topic", topic);
      target.searchParams.set("hub.reason", reason);
      const response = await deliver(new Request(target, { method: "GET" }));
      await response.arrayBuffer();
      return response.status;
    },
    async close() {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return hub;
}
