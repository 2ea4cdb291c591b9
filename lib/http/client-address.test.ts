import { describe, expect, it } from "vitest";
import {
  canonicalAddress,
  clientAddress,
  peerHeaderName,
  arrivedThroughProxy,
  fromThisMachine,
  peerIsLoopback,
  stampPeerAddress,
  UNTRUSTED_CLIENT,
} from "@/lib/http/client-address";

const forwarded = (value?: string, extra: Record<string, string> = {}) =>
  new Headers({ ...(value === undefined ? {} : { "x-forwarded-for": value }), ...extra });

describe("clientAddress", () => {
  it("with no trusted proxy, no header the client sends changes the key", () => {
    for (const headers of [
      forwarded(),
      forwarded("203.0.113.9"),
      forwarded("198.51.100.1, 203.0.113.9"),
      forwarded(undefined, {
        "x-real-ip": "203.0.113.5",
        "cf-connecting-ip": "203.0.113.6",
        forwarded: "for=203.0.113.7",
      }),
    ]) {
      expect(clientAddress(headers, 0)).toBe(UNTRUSTED_CLIENT);
    }
  });

  it("with no trusted proxy, the socket's peer address stamped by the request guard is the key; a client cannot forge it", () => {
    const request = {
      headers: {
        "x-verbatim-peer": "6.6.6.6",
        "x-verbatim-peer-0123": "6.6.6.7",
        "x-forwarded-for": "6.6.6.8",
      } as Record<string, string | undefined>,
      socket: { remoteAddress: "::ffff:203.0.113.9" },
    };
    stampPeerAddress(request);
    // The guard's own: the peer, and its mark that a forwarding header came with the request.
    expect(Object.keys(request.headers).filter((name) => name.startsWith("x-verbatim-peer"))).toEqual([
      `${peerHeaderName()}-proxied`,
      peerHeaderName(),
    ]);
    const headers = new Headers(request.headers as Record<string, string>);
    expect(clientAddress(headers, 0)).toBe("203.0.113.9");
    // The name carries a per-process random token: a guessed name is not read.
    expect(peerHeaderName()).toMatch(/^x-verbatim-peer-[0-9a-f]{24}$/);
    expect(clientAddress(forwarded(undefined, { "x-verbatim-peer": "198.51.100.1" }), 0)).toBe(UNTRUSTED_CLIENT);
    // With trusted proxies, X-Forwarded-For decides, not the socket (the socket is the proxy).
    expect(
      clientAddress(
        new Headers({ ...(request.headers as Record<string, string>), "x-forwarded-for": "198.51.100.7" }),
        1,
      ),
    ).toBe("198.51.100.7");
  });

  it("with N trusted proxies, takes the Nth address from the right and ignores what the client prepended", () => {
    expect(clientAddress(forwarded("203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(forwarded("6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(forwarded("6.6.6.6,203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
    expect(clientAddress(forwarded("1.1.1.1, 2.2.2.2, 203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
    // Another forwarding header cannot stand in for X-Forwarded-For.
    expect(clientAddress(forwarded("203.0.113.9", { "x-real-ip": "6.6.6.6" }), 1)).toBe("203.0.113.9");
  });

  it("fails closed on a missing, short or malformed chain", () => {
    expect(clientAddress(forwarded(), 1)).toBe(UNTRUSTED_CLIENT);
    expect(clientAddress(forwarded("203.0.113.9"), 2)).toBe(UNTRUSTED_CLIENT);
    expect(clientAddress(forwarded("not-an-ip"), 1)).toBe(UNTRUSTED_CLIENT);
    expect(clientAddress(forwarded("6.6.6.6, unknown"), 1)).toBe(UNTRUSTED_CLIENT);
    expect(clientAddress(forwarded(" , "), 1)).toBe(UNTRUSTED_CLIENT);
  });
});

describe("canonicalAddress", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["203.0.113.9:51234", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["[::ffff:203.0.113.9]:443", "203.0.113.9"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::9]:8080", "2001:db8:1:2::/64"],
    ["127.1", null],
    ["0x7f.0.0.1", null],
    ["999.1.1.1", null],
    ["evil.example", null],
    ["", null],
  ])("%s → %s", (input, expected) => {
    expect(canonicalAddress(input)).toBe(expected);
  });
});

describe("peerIsLoopback", () => {
  const peer = (remoteAddress?: string, extra: Record<string, string> = {}) => {
    const request = { headers: { ...extra } as Record<string, string | undefined>, socket: { remoteAddress } };
    stampPeerAddress(request);
    return new Headers(request.headers as Record<string, string>);
  };

  it("says what the socket was, never what a forwarding header claims", () => {
    expect(peerIsLoopback(peer("127.0.0.1"))).toBe(true);
    expect(peerIsLoopback(peer("::1"))).toBe(true);
    expect(peerIsLoopback(peer("::ffff:127.0.0.1"))).toBe(true);
    expect(peerIsLoopback(peer("192.168.1.20", { "x-forwarded-for": "127.0.0.1" }))).toBe(false);
    expect(peerIsLoopback(peer("::ffff:10.0.0.2"))).toBe(false);
  });

  it("knows nothing where the request guard did not run", () => {
    expect(peerIsLoopback(new Headers({ "x-forwarded-for": "127.0.0.1" }))).toBeNull();
  });
});

describe("arrivedThroughProxy", () => {
  it("sees a proxy in any forwarding header, or in a Host that is not a loopback name", () => {
    for (const headers of [
      { host: "127.0.0.1:3000", "x-forwarded-for": "203.0.113.9" },
      { host: "localhost:3000", forwarded: "for=203.0.113.9;proto=https" },
      { host: "localhost:3000", "x-real-ip": "203.0.113.9" },
      { host: "localhost:3000", "cf-connecting-ip": "203.0.113.9" },
      { host: "localhost:3000", via: "1.1 proxy" },
      { host: "localhost:3000", "x-forwarded-host": "verbatim.example" },
      { host: "verbatim.example" },
      { host: "abcd-203-0-113-9.ngrok-free.app" },
      { host: "192.168.1.20:3000" },
    ])
      expect(arrivedThroughProxy(headers), JSON.stringify(headers)).toBe(true);
  });

  it("sees none in a browser's request on this machine", () => {
    for (const host of [
      "localhost:3000",
      "127.0.0.1:3000",
      "[::1]:3000",
      "LOCALHOST",
      "app.localhost:3000",
      "127.0.0.2",
    ])
      expect(arrivedThroughProxy({ host, "user-agent": "a browser" }), host).toBe(false);
    expect(arrivedThroughProxy({})).toBe(false);
  });
});

describe("fromThisMachine", () => {
  const request = (remoteAddress: string, extra: Record<string, string>) => {
    const raw = { headers: { ...extra } as Record<string, string | undefined>, socket: { remoteAddress } };
    stampPeerAddress(raw);
    return new Headers(raw.headers as Record<string, string>);
  };

  it("is a loopback connection that came through no proxy", () => {
    expect(fromThisMachine(request("127.0.0.1", { host: "localhost:3000" }))).toBe(true);
    expect(fromThisMachine(request("127.0.0.1", { host: "localhost:3000", "x-forwarded-for": "203.0.113.9" }))).toBe(
      false,
    );
    expect(fromThisMachine(request("::1", { host: "tunnel.example" }))).toBe(false);
    expect(fromThisMachine(request("192.168.1.20", { host: "localhost:3000" }))).toBe(false);
  });

  it("cannot be claimed by the client: a sent mark of the guard's is dropped, and unknown where the guard did not run", () => {
    const forged = request("127.0.0.1", { host: "localhost:3000", [`${peerHeaderName()}-proxied`]: "1" });
    expect(fromThisMachine(forged)).toBe(true);
    const cleared = request("::1", { host: "tunnel.example" });
    expect(fromThisMachine(new Headers([...cleared].filter(([name]) => !name.endsWith("-proxied"))))).toBe(true);
    expect(fromThisMachine(new Headers({ host: "localhost:3000" }))).toBeNull();
  });
});
