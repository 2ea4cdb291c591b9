import { describe, expect, it } from "vitest";
import { ApiRequestError } from "./api";
import { describeTranscribeError, platformOfLink } from "./transcribe-errors";

describe("platformOfLink", () => {
  it("names the platforms by their hosts, with or without a scheme", () => {
    expect(platformOfLink("https://www.youtube.com/watch?v=x")).toBe("YouTube");
    expect(platformOfLink("youtu.be/abc")).toBe("YouTube");
    expect(platformOfLink("https://vm.tiktok.com/ZM")).toBe("TikTok");
    expect(platformOfLink("https://notyoutube.com/x")).toBeNull();
    expect(platformOfLink("https://feeds.example.com/ep.mp3")).toBeNull();
    expect(platformOfLink("hello")).toBeNull();
    expect(platformOfLink(null)).toBeNull();
  });
});

describe("describeTranscribeError", () => {
  const youtube = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

  it("a transient upstream failure says the platform could not be reached, not that the link is wrong, and offers a retry", () => {
    const shown = describeTranscribeError(
      new ApiRequestError(502, "YouTube did not answer as expected.", "upstream_failed"),
      youtube,
    );
    expect(shown.message).toBe(
      "YouTube could not be reached from this server just now. Your link is fine; try again in a moment.",
    );
    expect(shown.detail).toBe("YouTube did not answer as expected.");
    expect(shown.retry).toBe(true);
  });

  it("a failure with a named cause shows the API's sentence (cause and fix), and offers a retry only where waiting helps", () => {
    const dns = describeTranscribeError(
      new ApiRequestError(
        502,
        "This server could not look up youtube.com (DNS failed): it has no working DNS or no internet connection.",
        "upstream_dns_failed",
      ),
      youtube,
    );
    expect(dns).toEqual({
      message:
        "This server could not look up youtube.com (DNS failed): it has no working DNS or no internet connection.",
      detail: null,
      retry: false,
    });
    for (const code of ["upstream_refused", "upstream_tls_failed", "asr_model_missing"]) {
      const shown = describeTranscribeError(new ApiRequestError(502, `Cause of ${code}.`, code), youtube);
      expect(shown, code).toEqual({ message: `Cause of ${code}.`, detail: null, retry: false });
    }
    const bot = describeTranscribeError(
      new ApiRequestError(503, "A bot check (YOUTUBE_PROXIES).", "upstream_blocked"),
      youtube,
    );
    expect(bot).toEqual({ message: "A bot check (YOUTUBE_PROXIES).", detail: null, retry: true });
    expect(describeTranscribeError(new ApiRequestError(503, "429.", "upstream_rate_limited"), youtube).retry).toBe(
      true,
    );
    expect(describeTranscribeError(new ApiRequestError(503, "PO token.", "po_token_required"), youtube).message).toBe(
      "PO token.",
    );
  });

  it("for any other address it names the host and leaves room for a typo", () => {
    const shown = describeTranscribeError(
      new ApiRequestError(504, "The upstream server took too long to respond.", "upstream_timeout"),
      "https://cdn.example.org/ep.mp3",
    );
    expect(shown.message).toMatch(/^The server at cdn\.example\.org could not be reached .* Check the link/);
  });

  it("for an uploaded file there is no link to check", () => {
    const shown = describeTranscribeError(
      new ApiRequestError(504, "The upstream server took too long to respond.", "upstream_timeout"),
      null,
    );
    expect(shown.message).not.toMatch(/link|address/i);
    expect(shown.message).toContain("Your file is fine");
    expect(shown.retry).toBe(true);
  });

  it("speech recognition off: tells the user it is not available here (the operator's settings stay in the API answer)", () => {
    const error = new ApiRequestError(
      503,
      "This source needs speech recognition, which is not configured on this server. An operator turns it on with ASSEMBLYAI_API_KEY …",
      "asr_not_configured",
    );
    const link = describeTranscribeError(error, youtube);
    expect(link.message).toContain("not available on this server");
    expect(link.message).not.toContain("ASSEMBLYAI");
    expect(link.retry).toBe(false);
    expect(describeTranscribeError(error, null).message).toBe("Transcribing files is not available on this server.");
  });

  it("the API's sentence for the caller's own mistakes, and a retry only where asking again can help", () => {
    const invalid = describeTranscribeError(
      new ApiRequestError(422, "This is not a link. Paste the address of a video.", "value_error"),
      "hello",
    );
    expect(invalid).toEqual({
      message: "This is not a link. Paste the address of a video.",
      detail: null,
      retry: false,
    });
    expect(
      describeTranscribeError(new ApiRequestError(429, "Too many requests. Try again in 5 s.", "rate_limited"), youtube)
        .retry,
    ).toBe(true);
    expect(
      describeTranscribeError(new ApiRequestError(404, "This video is unavailable.", "video_unavailable"), youtube)
        .retry,
    ).toBe(false);
    expect(describeTranscribeError(new TypeError("Failed to fetch"), youtube)).toMatchObject({
      message: expect.stringMatching(/^Could not reach Verbatim/),
      retry: true,
    });
  });
});
