import { describe, expect, expectTypeOf, it } from "vitest";
import { ERROR_CODE_GROUPS, ERROR_CODES, isRetryableCode, type RepeatedCode } from "@/lib/http/error-codes";
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

  it("are one list: each code in one group, the groups joined in their order", () => {
    const grouped = ERROR_CODE_GROUPS.flatMap((group) => Object.keys(group));
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(Object.keys(ERROR_CODES)).toEqual(grouped);
    // The type the list's own check (CodesInTwoGroups) rests on finds a code two groups hold, and only that one
    // (checked by tsc).
    expectTypeOf<RepeatedCode<[{ a: 1; b: 1 }, { c: 1 }, { b: 1; d: 1 }]>>().toEqualTypeOf<"b">();
    expectTypeOf<RepeatedCode<[{ a: 1 }, { b: 1 }]>>().toBeNever();
  });
});
