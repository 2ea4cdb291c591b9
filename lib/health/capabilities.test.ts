import { describe, expect, it } from "vitest";
import { capabilityHealthFields, linesCutting, serverCapabilities } from "@/lib/health/capabilities";
import {
  judgeDatabase,
  judgeFfmpeg,
  judgeMail,
  judgeService,
  judgeSpeechModel,
  judgeYoutube,
  judgeYtDlp,
  setupDetailFields,
  type SetupLine,
} from "@/lib/health/setup-checks";

const youtube = (code: string, proxy: string | null = null) =>
  judgeYoutube("www.youtube.com", proxy, { ok: false, code, detail: "…" });
const modelMissing = judgeSpeechModel({
  provider: "local",
  model: "base-q5_1",
  reason: null,
  present: false,
  host: "huggingface.co",
  reachable: { ok: false, code: "ENOTFOUND" },
});
const can = (failing: SetupLine[] | null, speech = true) => serverCapabilities(failing, speech);

describe("what works on this server, from the setup checks", () => {
  it("everything while nothing fails; checking until the first round ends; files never without a recogniser", () => {
    expect(can([])).toEqual({ youtube: "available", links: "available", files: "available" });
    expect(can(null)).toEqual({ youtube: "checking", links: "checking", files: "checking" });
    expect(can(null, false).files).toBe("unavailable");
    expect(can([], false).files).toBe("unavailable");
  });

  it("YouTube refused, blocked or rate-limited takes YouTube away and leaves the other platforms", () => {
    for (const code of ["upstream_refused", "upstream_blocked", "upstream_rate_limited", "upstream_timeout"])
      expect(can([youtube(code)]), code).toEqual({ youtube: "unavailable", links: "available", files: "available" });
    // Behind a proxy that cannot resolve YouTube: the proxy's DNS, not this machine's.
    expect(can([youtube("upstream_dns_failed", "10.0.0.2:3128")]).links).toBe("available");
  });

  it("no DNS at all (no proxy) takes every link away; yt-dlp missing or a dead proxy the other platforms'", () => {
    expect(can([youtube("upstream_dns_failed")])).toEqual({
      youtube: "unavailable",
      links: "unavailable",
      files: "available",
    });
    expect(can([judgeYtDlp({ version: null, jsRuntime: null, solver: null, problems: ["x"] })])).toEqual({
      youtube: "available",
      links: "unavailable",
      files: "available",
    });
    // yt-dlp there but without a JavaScript runtime: YouTube audio downloads fail, captions do not.
    expect(can([judgeYtDlp({ version: "2026.08.19", jsRuntime: null, solver: null, problems: ["x"] })])).toEqual(
      can([]),
    );
    expect(
      can([judgeService("outbound_proxy", "OUTBOUND_PROXY", "10.0.0.2:3128", { ok: false, code: "ECONNREFUSED" })])
        .links,
    ).toBe("unavailable");
  });

  it("files go with the speech model, ffmpeg or the database; billing and mail take nothing away", () => {
    expect(can([modelMissing]).files).toBe("unavailable");
    expect(can([judgeFfmpeg(null)]).files).toBe("unavailable");
    expect(can([judgeDatabase({ ok: false, kind: "unknown" })])).toEqual({
      youtube: "unavailable",
      links: "unavailable",
      files: "unavailable",
    });
    expect(can([judgeMail("smtp.example.com:587", { ok: false, code: "EAUTH", detail: "Invalid login" })])).toEqual(
      can([]),
    );
    expect(linesCutting([youtube("upstream_refused"), modelMissing], "files")).toEqual([modelMissing]);
  });

  it("/health says what works in three fields, with no host, port or error", () => {
    const fields = capabilityHealthFields(can([youtube("upstream_refused", "10.0.0.2:3128"), modelMissing]));
    expect(fields).toEqual({ youtube_links: "unavailable", platform_links: "available", files: "unavailable" });
  });

  it("an operator's detail: every line's finding and the fix of those that fail", () => {
    expect(setupDetailFields([judgeFfmpeg("ffmpeg version 7"), youtube("upstream_refused", "10.0.0.2:3128")])).toEqual({
      setup_ffmpeg: "ok: ffmpeg version 7",
      setup_youtube: "failing: www.youtube.com through the proxy 10.0.0.2:3128: connection refused (upstream_refused)",
      setup_youtube_fix: "Start the proxy or correct its address in YOUTUBE_PROXIES / OUTBOUND_PROXY.",
    });
    expect(setupDetailFields([judgeMail(null, null)])).toEqual({
      setup_mail: "not configured: SMTP_URL not set: sign-in links, invitations and alert e-mails go to the server log",
    });
    expect(setupDetailFields(null)).toEqual({});
  });
});
