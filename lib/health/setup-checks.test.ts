import { describe, expect, it } from "vitest";
import {
  formatSetupLines,
  judgeDatabase,
  judgeFfmpeg,
  judgeService,
  judgeSpeechModel,
  judgeStripe,
  judgeYoutube,
  judgeYtDlp,
  setupHealthFields,
} from "@/lib/health/setup-checks";

describe("setup checks: each line ✓ or ✗ with the sentence that fixes it", () => {
  it("YouTube: DNS, refused (direct or through a proxy) and no route each name their own fix", () => {
    expect(judgeYoutube("www.youtube.com", null, { ok: true })).toMatchObject({ ok: true, fix: null });
    const dns = judgeYoutube("www.youtube.com", null, { ok: false, code: "ENOTFOUND" });
    expect(dns).toMatchObject({ ok: false, found: "www.youtube.com: ENOTFOUND (name resolution failed)" });
    expect(dns.fix).toMatch(/DNS server/);
    expect(judgeYoutube("www.youtube.com", null, { ok: false, code: "EAI_AGAIN" }).fix).toMatch(/DNS server/);
    expect(judgeYoutube("www.youtube.com", null, { ok: false, code: "ECONNREFUSED" }).fix).toMatch(/firewall/);
    expect(judgeYoutube("www.youtube.com", "http://10.0.0.2:3128", { ok: false, code: "ECONNREFUSED" }).fix).toMatch(
      /Start the proxy .*YOUTUBE_PROXIES/,
    );
    expect(judgeYoutube("www.youtube.com", null, { ok: false, code: "ENETUNREACH" }).fix).toMatch(/no route/);
  });

  it("the speech model: present, downloadable, or neither (then ✗, never ✓)", () => {
    const local = { provider: "local" as const, model: "base-q5_1", reason: null, host: "huggingface.co" };
    expect(judgeSpeechModel({ ...local, present: true })).toMatchObject({ ok: true });
    expect(judgeSpeechModel({ ...local, present: false, reachable: { ok: true } })).toMatchObject({
      ok: true,
      found: expect.stringContaining("downloads on first use"),
    });
    const neither = judgeSpeechModel({ ...local, present: false, reachable: { ok: false, code: "ENOTFOUND" } });
    expect(neither.ok).toBe(false);
    expect(neither.fix).toContain("ASR_LOCAL_MODEL_PATH");
    expect(neither.fix).not.toContain("npm run model:download");
    expect(judgeSpeechModel({ provider: "off", model: null, reason: "ASR_PROVIDER=off" }).ok).toBe(false);
    expect(judgeSpeechModel({ provider: "openai", model: "whisper-1", reason: null }).ok).toBe(true);
  });

  it("yt-dlp, ffmpeg, the database, configured services and Stripe", () => {
    expect(judgeYtDlp(null).ok).toBeNull();
    expect(judgeYtDlp({ version: null, jsRuntime: null, solver: null, problems: [] }).fix).toMatch(/install-yt-dlp/);
    expect(
      judgeYtDlp({ version: "2026.08.19", jsRuntime: null, solver: null, problems: ["no JavaScript runtime: …"] }),
    ).toMatchObject({ ok: false, fix: "no JavaScript runtime: …" });
    expect(judgeFfmpeg(null).ok).toBe(false);
    expect(judgeDatabase({ ok: false, kind: "unknown", error: "timed out" }).fix).toMatch(/DATABASE_URL/);
    expect(judgeService("mail", "SMTP_URL", null, null)).toMatchObject({ ok: null, fix: null });
    expect(judgeService("mail", "SMTP_URL", "smtp.example:587", { ok: false, code: "ECONNREFUSED" }).fix).toBe(
      "Start it, or correct SMTP_URL.",
    );
    expect(judgeStripe(false, false).ok).toBeNull();
    expect(judgeStripe(true, false).fix).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });

  it("print as ✓/✗/‒ lines with the fix under a failing one, and sum up for /health", () => {
    const lines = [
      judgeDatabase({ ok: true, kind: "pglite" }),
      judgeYoutube("www.youtube.com", null, { ok: false, code: "ENOTFOUND" }),
      judgeStripe(false, false),
    ];
    const text = formatSetupLines(lines);
    expect(text.split("\n")[0]).toBe("✓ database  pglite answers");
    expect(text).toMatch(/^✗ youtube {3}www\.youtube\.com: ENOTFOUND/m);
    expect(text).toMatch(/^ {12}→ Give this machine a working DNS server/m);
    expect(text).toMatch(/^‒ stripe/m);
    expect(setupHealthFields(lines)).toEqual({ setup: "degraded", setup_failing: "youtube" });
    expect(setupHealthFields([lines[0]!])).toEqual({ setup: "ok" });
    expect(setupHealthFields(null)).toEqual({ setup: "checking" });
  });
});
