import net from "node:net";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { createOutbound } from "@/lib/http/outbound";
import { fetchFeedOrAudio } from "@/lib/podcasts/fetch-feed";

// A feed URL that cannot be reached: the failure's own code and a sentence about the feed's host,
// not "could not be reached just now, try again" and never a YouTube setting.

async function failure(url: string, outbound = createOutbound({ defaults: { retries: 0 } })): Promise<ApiError> {
  const error = await fetchFeedOrAudio(url, { outbound, maxBytes: 1e6, timeoutMs: 10_000 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("fetchFeedOrAudio: network failures name the feed's host", () => {
  it("DNS: upstream_dns_failed, naming the host to check", async () => {
    const outbound = createOutbound({
      defaults: { retries: 0 },
      resolver: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND podcast.example.invalid"), { code: "ENOTFOUND" });
      },
    });
    const error = await failure("https://podcast.example.invalid/feed.xml", outbound);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^The name podcast\.example\.invalid could not be found \(DNS failed\): check/);
    expect(error.message).not.toMatch(/YOUTUBE_PROXIES|try again/i);
    expect(error.code).toBe("upstream_dns_failed");
  });

  it("refused: upstream_refused, the host first, the proxy setting only if every link fails", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });
    const error = await failure(`http://127.0.0.1:${port}/feed.xml`, outbound);
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/^127\.0\.0\.1 refused the connection: .*If every link fails, .*OUTBOUND_PROXY/);
    expect(error.code).toBe("upstream_refused");
  });
});
