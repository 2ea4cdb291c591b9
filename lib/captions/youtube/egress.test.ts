import { describe, expect, it } from "vitest";

import { createOutbound } from "@/lib/http/outbound";

import { cookieHeaderFromNetscape } from "./cookies";
import { createEgress } from "./egress";
import { parseClientList } from "./clients";

describe("egress", () => {
  const made: (string | undefined)[] = [];
  const make = (proxies: string[], now: () => number) =>
    createEgress({
      proxies,
      cooldownMs: 60_000,
      now,
      makeOutbound: (p) => {
        made.push(p);
        return createOutbound();
      },
    });

  it("rotates through ready proxies, skips cooling ones, falls back to the one ready soonest", () => {
    let t = 1_000_000;
    const e = make(["http://a:1", "http://user:secret@b:2", "https://c"], () => t);
    expect(e.size).toBe(3);
    const first = e.pick(new Set())!;
    expect(first.label).toBe("proxy1:a:1");
    expect(e.pick(new Set())!.label).toBe("proxy2:b:2"); // never the credentials
    e.block(first);
    t += 1_000;
    const c = e.pick(new Set())!;
    expect(c.label).toBe("proxy3:c:443");
    e.block(e.pick(new Set(["http://a:1"]))!); // b
    e.block(c);
    expect(e.retryAfterSeconds()).toBe(59); // a is ready first
    expect(e.pick(new Set())!.proxy).toBe("http://a:1");
    expect(e.pick(new Set(["http://a:1", "http://user:secret@b:2", "https://c"]))).toBeNull();
    t += 60_000;
    expect(e.retryAfterSeconds()).toBe(0);
  });

  it("no proxy: one direct exit that is still used while cooling", () => {
    const e = make([], () => 0);
    const d = e.pick(new Set())!;
    expect(d).toMatchObject({ proxy: null, label: "direct" });
    e.block(d);
    expect(e.pick(new Set())).toBe(d);
  });
});

describe("YOUTUBE_CLIENTS", () => {
  it("parses names case-insensitively, drops repeats, refuses unknown ones", () => {
    expect(parseClientList(" visionos, android_vr,WEB,web ")).toEqual(["VISIONOS", "ANDROID_VR", "WEB"]);
    expect(() => parseClientList("IOS,NOKIA")).toThrow(/unknown InnerTube client "NOKIA"/);
    expect(() => parseClientList(" , ")).toThrow(/at least one/);
  });
});

describe("YOUTUBE_COOKIES_FILE", () => {
  it("keeps unexpired youtube.com and google.com cookies as one Cookie header, HttpOnly lines included", () => {
    const file = [
      "# Netscape HTTP Cookie File",
      ".youtube.com\tTRUE\t/\tTRUE\t2000000000\tPREF\tf6=40000000&hl=en",
      "#HttpOnly_.youtube.com\tTRUE\t/\tTRUE\t2000000000\t__Secure-3PSID\tabc.def",
      ".google.com\tTRUE\t/\tTRUE\t0\tNID\t511=xyz",
      ".youtube.com\tTRUE\t/\tTRUE\t1000\tOLD\tgone",
      ".example.com\tTRUE\t/\tFALSE\t2000000000\tOTHER\tno",
      "malformed line",
      ".youtube.com\tTRUE\t/\tTRUE\t2000000000\tBAD;NAME\tx",
    ].join("\n");
    expect(cookieHeaderFromNetscape(file, 1_700_000_000)).toBe(
      "PREF=f6=40000000&hl=en; __Secure-3PSID=abc.def; NID=511=xyz",
    );
  });
});
