import { describe, expect, it } from "vitest";
import { ERROR_CODES, isRetryableCode } from "@/lib/http/error-codes";
import { ApiError, errorResponse } from "@/lib/http/errors";
import { SourceError } from "@/lib/captions/types";
import { OutboundError } from "@/lib/http/outbound/errors";

describe("error codes", () => {
  it("give an ApiError its status and, without a detail, a sentence from the meaning", async () => {
    const error = new ApiError("upload_url_invalid");
    expect(error.status).toBe(403);
    expect(error.detail).toBe("The upload URL was altered or is incomplete; sign a new one.");
    const res = errorResponse(new ApiError("invalid_signature", "Missing Stripe-Signature header."));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Missing Stripe-Signature header.", code: "invalid_signature" });
  });

  it("decide the status of platform and outbound failures too", () => {
    expect(new SourceError("video_unplayable", "no").status).toBe(422);
    expect(new SourceError("upstream_blocked", "bot check").status).toBe(503);
    expect(new OutboundError("upstream_timeout", "slow").status).toBe(504);
  });

  it("say which codes are worth asking again: the platform's or this server's trouble, not the request's", () => {
    expect(isRetryableCode("upstream_rate_limited")).toBe(true);
    expect(isRetryableCode("rate_limited")).toBe(true);
    expect(isRetryableCode("video_unplayable")).toBe(false);
    expect(isRetryableCode("asr_not_configured")).toBe(false);
    expect(isRetryableCode("no_such_code")).toBe(false);
    expect(isRetryableCode(null)).toBe(false);
  });

  it("are snake_case, with a one-line meaning and an error status each", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(info.meaning).not.toMatch(/\n|\.$/);
    }
  });
});
