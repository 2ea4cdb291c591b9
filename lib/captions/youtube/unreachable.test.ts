import { describe, expect, it } from "vitest";
import { unreachableError } from "@/lib/captions/youtube/provider";
import { operatorNote } from "@/lib/observability/failure-cause";
import { isRetryableCode } from "@/lib/http/error-codes";

// YouTube not reachable at all: each cause its own code and sentence with what fixes it
// (docs/decisions/0009-failures-name-their-cause-and-fix.md).

describe("unreachableError", () => {
  it("DNS: upstream_dns_failed, says the server has no DNS or internet, not to try again", () => {
    const error = unreachableError({ cause: "dns", detail: "getaddrinfo ENOTFOUND www.youtube.com" }, false);
    expect(error.code).toBe("upstream_dns_failed");
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/could not look up youtube\.com \(DNS failed\)/);
    expect(error.message).not.toMatch(/try again/i);
    expect(isRetryableCode(error.code)).toBe(false);
    expect(operatorNote(error)).toMatchObject({ cause: "dns", detail: "getaddrinfo ENOTFOUND www.youtube.com" });
  });

  it("refused: names the proxy settings when a proxy is in the way, the firewall when not", () => {
    const viaProxy = unreachableError({ cause: "connection_refused", detail: "connect ECONNREFUSED" }, true);
    expect(viaProxy.code).toBe("upstream_refused");
    expect(viaProxy.message).toMatch(/proxy .* refused .*YOUTUBE_PROXIES, OUTBOUND_PROXY/);
    const direct = unreachableError({ cause: "connection_refused", detail: "connect ECONNREFUSED" }, false);
    expect(direct.message).toMatch(/firewall/);
  });

  it("TLS: upstream_tls_failed naming NODE_EXTRA_CA_CERTS; no route stays a network failure with its fix", () => {
    const tls = unreachableError({ cause: "tls", detail: "self-signed certificate in certificate chain" }, false);
    expect(tls.code).toBe("upstream_tls_failed");
    expect(tls.message).toContain("NODE_EXTRA_CA_CERTS");
    const route = unreachableError({ cause: "no_route", detail: "connect ENETUNREACH" }, false);
    expect(route.code).toBe("upstream_failed");
    expect(route.message).toMatch(/no route to YouTube/);
  });
});
