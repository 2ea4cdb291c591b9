import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "@/lib/http/outbound";
import { probeMail, probeStripe } from "@/lib/health/probe-services";
import { PROBE_VIDEO_ID, probeYoutube } from "@/lib/health/probe-youtube";
import { judgeMail, judgeStripe, judgeYoutube } from "@/lib/health/setup-checks";
import { startFakeProxy, type FakeProxy } from "@/test/fakes/proxy/server";
import { startFakeSmtp, type FakeSmtp } from "@/test/fakes/smtp/server";
import { startFakeStripe, type FakeStripe } from "@/test/fakes/stripe/server";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";

// The setup checks' real requests against the fakes: YouTube (InnerTube through the caption lookup's path),
// Stripe (the official SDK) and SMTP (nodemailer's verify()), each judged into its ✓/✗ line.

const allowLocal = (host: string) => host === "127.0.0.1";
const local = createOutbound({ allowPrivateFor: allowLocal, defaults: { retries: 0, timeoutMs: 5_000 } });

/** A port where nothing listens (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the YouTube check: one real InnerTube request, the caption lookup's way", () => {
  let youtube: FakeYoutube;
  const proxies: FakeProxy[] = [];
  beforeAll(async () => {
    youtube = await startFakeYoutube();
  });
  afterAll(async () => {
    await youtube.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  it("a real answer is ✓ (the fake, like YouTube, says the unknown test video is unavailable)", async () => {
    const answer = await probeYoutube({ outbound: local, innertubeBaseUrl: youtube.url });
    expect(answer).toEqual({ ok: true, detail: "answers (about the test video: video_unavailable)" });
    expect(youtube.requests.some((r) => r.path === "/youtubei/v1/player" && r.body.includes(PROBE_VIDEO_ID))).toBe(
      true,
    );
    expect(judgeYoutube("127.0.0.1", null, answer).ok).toBe(true);
  });

  it("the bot check (LOGIN_REQUIRED, “Sign in to confirm you’re not a bot”) on every client is ✗ naming the settings", async () => {
    youtube.scenarios.set(PROBE_VIDEO_ID, { "*": "recorded/request_blocked" });
    try {
      const answer = await probeYoutube({ outbound: local, innertubeBaseUrl: youtube.url, blockRetries: 0 });
      expect(answer).toMatchObject({ ok: false, code: "upstream_blocked" });
      const line = judgeYoutube("www.youtube.com", null, answer);
      expect(line.found).toMatch(/bot check/);
      expect(line.fix).toMatch(/YOUTUBE_POT_PROVIDER_URL/);
    } finally {
      youtube.scenarios.delete(PROBE_VIDEO_ID);
    }
  });

  it("the bot check met through the configured proxy (YOUTUBE_PROXIES): the request took the proxy", async () => {
    const proxy = await startFakeProxy("check", "bot-check");
    proxies.push(proxy);
    const answer = await probeYoutube({
      outbound: local,
      innertubeBaseUrl: youtube.url,
      proxies: [proxy.url],
      makeOutbound: (proxyUrl) => createOutbound({ proxyUrl, allowPrivateFor: allowLocal, defaults: { retries: 0 } }),
      blockRetries: 0,
    });
    expect(answer).toMatchObject({ ok: false, code: "upstream_blocked" });
    expect(proxy.requests.some((r) => r.url.includes("/youtubei/v1/player"))).toBe(true);
  });

  it("429 on every client is ✗ rate-limited", async () => {
    youtube.scenarios.set(PROBE_VIDEO_ID, { "*": "429" });
    try {
      const answer = await probeYoutube({ outbound: local, innertubeBaseUrl: youtube.url, blockRetries: 0 });
      expect(answer).toMatchObject({ ok: false, code: "upstream_rate_limited" });
      expect(judgeYoutube("www.youtube.com", null, answer).found).toMatch(/429/);
    } finally {
      youtube.scenarios.delete(PROBE_VIDEO_ID);
    }
  });

  it("nothing listening is ✗ refused; a name that does not resolve is ✗ DNS", async () => {
    const refused = await probeYoutube({ outbound: local, innertubeBaseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(refused).toMatchObject({ ok: false, code: "upstream_refused" });
    const noDns = createOutbound({
      defaults: { retries: 0 },
      resolver: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND www.youtube.com"), { code: "ENOTFOUND" });
      },
    });
    const dns = await probeYoutube({ outbound: noDns });
    expect(dns).toMatchObject({ ok: false, code: "upstream_dns_failed" });
    expect(judgeYoutube("www.youtube.com", null, dns).fix).toMatch(/DNS server/);
  });
});

describe("the Stripe check: one cheap read with the SDK", () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(async () => {
    await stripe.close();
  });

  it("✓ with the right key; ✗ naming STRIPE_SECRET_KEY with a wrong one; ✗ naming STRIPE_API_BASE when nothing answers", async () => {
    expect(await probeStripe(stripe.apiKey, stripe.origin)).toEqual({ ok: true });
    expect(stripe.count("GET", "/v1/prices")).toBe(1);
    const bad = await probeStripe("sk_test_not_this_one", stripe.origin);
    expect(bad).toMatchObject({ ok: false, kind: "bad_key" });
    expect(judgeStripe({ configured: true, apiBase: stripe.origin, webhookSecret: true, answer: bad }).fix).toMatch(
      /^Stripe does not accept STRIPE_SECRET_KEY/,
    );
    const down = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await probeStripe(stripe.apiKey, down);
    expect(unreachable).toMatchObject({ ok: false, kind: "unreachable" });
    expect(judgeStripe({ configured: true, apiBase: down, webhookSecret: true, answer: unreachable }).fix).toMatch(
      /STRIPE_API_BASE/,
    );
  });
});

describe("the mail check: nodemailer's verify() against SMTP_URL", () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp({ user: "verbatim", pass: "secret" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("✓ when it lets us in; ✗ naming the login in SMTP_URL when it does not; ✗ when nothing listens", async () => {
    expect(await probeMail(`smtp://verbatim:secret@127.0.0.1:${smtp.port}`)).toEqual({ ok: true });
    expect(smtp.commands).toEqual(expect.arrayContaining([expect.stringMatching(/^EHLO /), "AUTH PLAIN <redacted>"]));
    const wrong = await probeMail(`smtp://verbatim:wrong@127.0.0.1:${smtp.port}`);
    expect(wrong).toMatchObject({ ok: false, code: "EAUTH" });
    expect(judgeMail(`127.0.0.1:${smtp.port}`, wrong).fix).toMatch(/user name or password/);
    const refused = await probeMail(`smtp://127.0.0.1:${await closedPort()}`);
    expect(refused).toMatchObject({ ok: false });
    expect(judgeMail("127.0.0.1", refused).fix).toMatch(/^Nothing accepts connections/);
  });
});
