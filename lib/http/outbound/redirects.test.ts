import { describe, expect, it } from "vitest";

import { OutboundError } from "./errors";
import { nextHop, type Hop } from "./redirects";
import { retryDelay } from "./retries";

const post: Hop = {
  url: new URL("https://a.example/form"),
  method: "POST",
  headers: { authorization: "Bearer t", cookie: "c=1", "content-type": "application/json", accept: "*/*" },
  body: "{}",
};
const check = (raw: string) => new URL(raw);

describe("nextHop", () => {
  it("303 turns any request but HEAD into a GET without its body or content type", () => {
    const next = nextHop(post, 303, "/done", 0, 5, check);
    expect(next).toMatchObject({ url: new URL("https://a.example/done"), method: "GET", body: undefined });
    expect(next.headers).not.toHaveProperty("content-type");
    expect(nextHop({ ...post, method: "HEAD", body: undefined }, 303, "/x", 0, 5, check).method).toBe("HEAD");
  });

  it("307 and 308 keep the method and body; 301 and 302 turn only a POST into a GET", () => {
    expect(nextHop(post, 307, "/again", 0, 5, check)).toMatchObject({ method: "POST", body: "{}" });
    expect(nextHop(post, 302, "/again", 0, 5, check)).toMatchObject({ method: "GET", body: undefined });
    expect(nextHop({ ...post, method: "PUT" }, 301, "/again", 0, 5, check)).toMatchObject({ method: "PUT" });
  });

  it("credentials stay with their origin", () => {
    expect(nextHop(post, 307, "/same", 0, 5, check).headers).toMatchObject({
      authorization: "Bearer t",
      cookie: "c=1",
    });
    const away = nextHop(post, 307, "https://b.example/", 0, 5, check).headers;
    expect(away).not.toHaveProperty("authorization");
    expect(away).not.toHaveProperty("cookie");
    expect(away).toMatchObject({ accept: "*/*" });
  });

  it("every hop's URL goes through the check, and the count is bounded", () => {
    const refuse = () => {
      throw new OutboundError("url_not_allowed", "no");
    };
    expect(() => nextHop(post, 302, "http://10.0.0.1/", 0, 5, refuse)).toThrow(OutboundError);
    expect(() => nextHop(post, 302, "/x", 5, 5, check)).toThrow(/more than 5 times/);
    expect(() => nextHop(post, 302, "http://[::1", 0, 5, check)).toThrow(/invalid redirect/);
  });
});

describe("retryDelay", () => {
  const opts = { retryBaseDelayMs: 300, maxRetryDelayMs: 5_000 };
  it("doubles from the base, capped; a server's Retry-After wins, capped too", () => {
    expect([0, 1, 2, 5].map((attempt) => retryDelay(attempt, opts))).toEqual([300, 600, 1_200, 5_000]);
    expect(retryDelay(0, opts, "2")).toBe(2_000);
    expect(retryDelay(0, opts, "120")).toBe(5_000);
    expect(retryDelay(1, opts, "soon")).toBe(600);
  });
});
