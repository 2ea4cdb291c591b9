import http from "node:http";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type FakeProxy, startFakeProxy } from "./server";

// The intercepting proxy terminates TLS with a certificate made in Node (no openssl CLI): a client that
// CONNECTs to www.youtube.com:443 through it gets YouTube's names in the certificate and the origin's answer.

let origin: http.Server;
let proxy: FakeProxy;

beforeAll(async () => {
  origin = http.createServer((req, res) => res.end(`origin saw ${req.url}`));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  proxy = await startFakeProxy("mitm", "pass", {
    intercept: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
  });
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => origin.close(resolve));
});

/** GET https://www.youtube.com<path> through the proxy's CONNECT tunnel; the certificate and the answer. */
function getThroughTunnel(requestPath: string): Promise<{ subjectAltName: string; validDays: number; body: string }> {
  return new Promise((resolve, reject) => {
    const connect = http.request(proxy.url, { method: "CONNECT", path: "www.youtube.com:443" });
    connect.once("error", reject);
    connect.once("connect", (_res, socket) => {
      const secure = tls.connect({ socket, servername: "www.youtube.com", rejectUnauthorized: false }, () => {
        const certificate = secure.getPeerCertificate();
        secure.write(`GET ${requestPath} HTTP/1.1\r\nHost: www.youtube.com\r\nConnection: close\r\n\r\n`);
        let answer = "";
        secure.on("data", (chunk: Buffer) => (answer += chunk.toString()));
        secure.once("end", () =>
          resolve({
            subjectAltName: certificate.subjectaltname ?? "",
            validDays: (Date.parse(certificate.valid_to) - Date.parse(certificate.valid_from)) / 86_400_000,
            body: answer.split("\r\n\r\n").slice(1).join("\r\n\r\n"),
          }),
        );
      });
      secure.once("error", reject);
    });
    connect.end();
  });
}

describe("the fake proxy's TLS interception", () => {
  it("answers https://www.youtube.com through CONNECT with a certificate for YouTube's names", async () => {
    const answer = await getThroughTunnel("/watch?v=abc");
    expect(answer.subjectAltName).toBe(
      "DNS:www.youtube.com, DNS:youtube.com, DNS:m.youtube.com, DNS:youtubei.googleapis.com",
    );
    expect(answer.validDays).toBeCloseTo(2, 0);
    expect(answer.body).toContain("origin saw /watch?v=abc");
    expect(proxy.requests).toContainEqual({ method: "GET", url: "https://www.youtube.com/watch?v=abc" });
  });
});
