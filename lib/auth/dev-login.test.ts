import { describe, expect, it } from "vitest";
import { devLoginRefused } from "@/lib/auth/dev-login";
import { stampPeerAddress } from "@/lib/http/client-address";

// Whether the development login refuses a request, as the request guard stamped it on Node's request.

function request(remoteAddress: string, headers: Record<string, string>): Headers {
  const raw = { headers: { ...headers } as Record<string, string | undefined>, socket: { remoteAddress } };
  stampPeerAddress(raw);
  return new Headers(raw.headers as Record<string, string>);
}

const byDefault = { AUTH_DEV_LOGIN: undefined };

describe("the development login, on by default", () => {
  it("is for a browser on this machine", () => {
    expect(devLoginRefused(byDefault, request("127.0.0.1", { host: "localhost:3000" }))).toBe(false);
    expect(devLoginRefused(byDefault, request("::1", { host: "[::1]:3000" }))).toBe(false);
  });

  it.each([
    ["X-Forwarded-For", { "x-forwarded-for": "203.0.113.9" }],
    ["Forwarded", { forwarded: "for=203.0.113.9" }],
    ["X-Real-IP", { "x-real-ip": "203.0.113.9" }],
    ["CF-Connecting-IP", { "cf-connecting-ip": "203.0.113.9" }],
    ["a Host that is not loopback", { host: "verbatim.example" }],
  ])("is refused through a proxy on this machine (%s)", (_what, headers) => {
    expect(devLoginRefused(byDefault, request("127.0.0.1", { host: "localhost:3000", ...headers }))).toBe(true);
  });

  it("is refused from another machine", () => {
    expect(devLoginRefused(byDefault, request("192.168.1.20", { host: "localhost:3000" }))).toBe(true);
  });
});

describe("the development login asked for with AUTH_DEV_LOGIN=true", () => {
  it("is the operator's to open to whoever reaches the server, by any way", () => {
    expect(devLoginRefused({ AUTH_DEV_LOGIN: true }, request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).toBe(
      false,
    );
    expect(devLoginRefused({ AUTH_DEV_LOGIN: true }, request("192.168.1.20", {}))).toBe(false);
  });
});
