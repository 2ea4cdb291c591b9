import { describe, expect, it } from "vitest";
import { ApiError, errorResponse, errors } from "@/lib/http/errors";

describe("errorResponse", () => {
  it("answers {detail, code} with the error's status and headers", async () => {
    const res = errorResponse(errors.rateLimited(7));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({ detail: "Too many requests. Try again in 7 s.", code: "rate_limited" });
  });

  it("answers every 422 as the contract's HTTPValidationError, the code as the item's type", async () => {
    const res = errorResponse(new ApiError("feed_invalid", "The feed is not well-formed XML (line 3, column 9)."));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [{ type: "feed_invalid", loc: ["body"], msg: "The feed is not well-formed XML (line 3, column 9)." }],
    });
  });
});
