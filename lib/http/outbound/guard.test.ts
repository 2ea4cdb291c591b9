import { describe, expect, it } from "vitest";

import { OutboundError } from "./errors";
import { checkResolvedAddresses, checkUrl, isPublicAddress, parseIPv6 } from "./guard";

function refusal(fn: () => unknown): OutboundError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error("expected an OutboundError");
}

describe("isPublicAddress", () => {
  const notPublic = [
    // loopback, unspecified, "this network"
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "0.1.2.3",
    "::1",
    "::",
    "[::1]",
    // private
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "fc00::1",
    "fd12:3456:789a::1",
    // link-local incl. cloud metadata
    "169.254.169.254",
    "169.254.0.1",
    "fe80::1",
    "febf::1",
    "fe80::1%eth0",
    // CGNAT, benchmarking, documentation, IETF, 6to4 relay
    "100.64.0.1",
    "100.127.255.255",
    "198.18.0.1",
    "198.19.255.255",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.0.0.1",
    "192.88.99.1",
    "2001:db8::1",
    "3fff::1",
    "2001::1",
    "2001:2::1",
    "2001:10::1",
    "100::1",
    // multicast, reserved, broadcast, site-local
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "ff02::1",
    "ff05::2",
    "fec0::1",
    // IPv4-mapped / compatible / translated
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "::7f00:1",
    "::ffff:0:127.0.0.1",
    "0:0:0:0:0:ffff:7f00:1",
    "::ffff:0.0.0.0",
    // NAT64 with private v4, local-use NAT64
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::8.8.8.8",
    // 6to4 embedding private v4
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2002:c0a8:101::1",
    "2002:a9fe:a9fe::",
    // garbage
    "",
    "localhost",
    "127.1",
    "0x7f000001",
    "2130706433",
    "1.2.3.04",
    "999.1.1.1",
    "::ffff:1.2.3",
    "1::2::3",
  ];
  it.each(notPublic)("refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  const isPublic = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.167.1.1",
    "198.17.255.255",
    "198.20.0.1",
    "223.255.255.254",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "[2606:4700:4700::1111]",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ];
  it.each(isPublic)("accepts %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("parseIPv6", () => {
  it("expands the forms the guard depends on", () => {
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("2002:7f00:1::")).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("nope")).toBeNull();
  });
});

describe("checkUrl", () => {
  const internal = [
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/admin",
    "http://localhost/",
    "http://LOCALHOST:3000/",
    "http://localhost./",
    "http://api.localhost/",
    "http://foo.bar.localhost./x",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[fe80::1]/",
    "http://[fd00::1]/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://%31%32%37.0.0.1/",
    "http://0/",
    "http://0.0.0.0/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://10.0.0.1/",
    "http://192.168.0.1/",
    "http://172.16.0.1/",
    "http://100.64.0.1/",
    "https://metadata/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://printer.local/",
    "http://router.home.arpa/",
  ];
  it.each(internal)("refuses internal target %s with a 4xx", (raw) => {
    const err = refusal(() => checkUrl(raw));
    expect(err.code).toBe("address_not_allowed");
    expect(err.status).toBeGreaterThanOrEqual(400);
    expect(err.status).toBeLessThan(500);
  });

  const badShape = [
    "file:///etc/passwd",
    "gopher://example.com:70/_stats",
    "ftp://example.com/file.mp3",
    "data:text/plain,hello",
    "javascript:alert(1)",
    "ws://example.com/",
    "dict://example.com:11211/",
    "http://user:pass@example.com/",
    "http://user@example.com/",
    "not a url",
    "",
    "//example.com/x",
    `https://example.com/${"a".repeat(5000)}`,
  ];
  it.each(badShape)("refuses %s as url_not_allowed", (raw) => {
    const err = refusal(() => checkUrl(raw));
    expect(err.code).toBe("url_not_allowed");
    expect(err.status).toBe(422);
  });

  it("accepts ordinary public URLs and returns the normalized URL", () => {
    expect(checkUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ").href).toBe(
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    );
    expect(checkUrl("HTTP://Example.COM:80/a").href).toBe("http://example.com/a");
    expect(checkUrl("http://8.8.8.8/").hostname).toBe("8.8.8.8");
    expect(checkUrl("http://[2606:4700:4700::1111]/").hostname).toBe("[2606:4700:4700::1111]");
  });

  it("applies the port allow-list after scheme defaults", () => {
    expect(checkUrl("https://example.com/", { allowedPorts: [443] }).port).toBe("");
    expect(checkUrl("https://example.com:443/", { allowedPorts: [443] }).port).toBe("");
    expect(refusal(() => checkUrl("https://example.com:6379/", { allowedPorts: [80, 443] })).code).toBe(
      "url_not_allowed",
    );
    expect(refusal(() => checkUrl("http://example.com/", { allowedPorts: [443] })).code).toBe("url_not_allowed");
  });

  it("refuses port 0, which no connection can reach, whatever the allow-list and the host", () => {
    for (const raw of ["https://example.com:0/hook", "http://example.com:00/", "https://8.8.8.8:0/"])
      expect(refusal(() => checkUrl(raw)).code, raw).toBe("url_not_allowed");
    expect(refusal(() => checkUrl("http://127.0.0.1:0/", { allowPrivateFor: () => true })).code).toBe(
      "url_not_allowed",
    );
    expect(checkUrl("https://example.com:1/").port).toBe("1");
  });

  it("lets the explicit test hook allow a named host, and only that host", () => {
    const allowPrivateFor = (h: string) => h === "127.0.0.1";
    expect(checkUrl("http://127.0.0.1:1234/", { allowPrivateFor }).port).toBe("1234");
    expect(refusal(() => checkUrl("http://localhost:1234/", { allowPrivateFor })).code).toBe("address_not_allowed");
    expect(refusal(() => checkUrl("http://[::ffff:127.0.0.1]:1234/", { allowPrivateFor })).code).toBe(
      "address_not_allowed",
    );
    // The hook never relaxes the scheme or credential rules.
    expect(refusal(() => checkUrl("file:///etc/passwd", { allowPrivateFor: () => true })).code).toBe("url_not_allowed");
  });
});

describe("checkResolvedAddresses", () => {
  it("refuses a name if any address is internal", () => {
    expect(refusal(() => checkResolvedAddresses("evil.example", ["93.184.216.34", "127.0.0.1"])).code).toBe(
      "address_not_allowed",
    );
    expect(refusal(() => checkResolvedAddresses("evil.example", ["::ffff:10.0.0.1"])).code).toBe("address_not_allowed");
    expect(refusal(() => checkResolvedAddresses("evil.example", [])).code).toBe("upstream_failed");
    expect(() => checkResolvedAddresses("ok.example", ["93.184.216.34", "2606:4700:4700::1111"])).not.toThrow();
  });
});
