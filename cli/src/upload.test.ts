import { describe, expect, it } from "vitest";
import { refusalFromHealth } from "./upload";

describe("a file refused before upload, from what /health says works", () => {
  it("files unavailable: refused in the user's words, without the server's setup", () => {
    const refusal = refusalFromHealth("talk.wav", {
      status: "ok",
      speech_recognition: "local",
      setup: "degraded",
      youtube_links: "available",
      platform_links: "available",
      files: "unavailable",
    });
    expect(refusal?.message).toBe(
      "talk.wav: files cannot be transcribed on this server right now (its operator's `npm run doctor` says why). Nothing was uploaded.",
    );
    expect(refusal?.code).toBe("asr_model_missing");
  });

  it("files available, or a server that says nothing: sent", () => {
    expect(refusalFromHealth("talk.wav", { status: "ok", speech_recognition: "local", files: "available" })).toBeNull();
    expect(refusalFromHealth("talk.wav", { status: "ok", files: "checking" })).toBeNull();
    expect(refusalFromHealth("talk.wav", null)).toBeNull();
  });
});
