import { describe, expect, it } from "vitest";
import { ApiError, clientFault, errorResponse, errors, internalErrorResponse } from "@/lib/http/errors";
import { captureLogs } from "@/test/capture-logs";

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

describe("a client's mistake that reaches a catch-all", () => {
  const abort = () => Object.assign(new Error("aborted"), { code: "ECONNRESET" });

  it("is told apart from our failures: 4xx refusals and a body the client cut off", () => {
    expect(clientFault(new ApiError("body_interrupted", "The request body ended early."))?.code).toBe(
      "body_interrupted",
    );
    expect(clientFault(abort())).toMatchObject({ code: "body_interrupted", status: 400 });
    expect(clientFault(new TypeError("terminated", { cause: abort() }))?.code).toBe("body_interrupted");
    expect(clientFault(Object.assign(new Error("x"), { code: "ERR_STREAM_PREMATURE_CLOSE" }))?.status).toBe(400);
    expect(clientFault(new Error("boom"))).toBeNull();
    expect(clientFault(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBeNull();
    expect(clientFault(errors.insufficientStorage())).toBeNull();
  });

  it("is answered as a 4xx and logged as one warn line without a stack; ours stay errors with theirs", () => {
    const logs = captureLogs();
    try {
      expect(internalErrorResponse(abort(), "POST /v1/follows").status).toBe(400);
      expect(internalErrorResponse(new Error("boom"), "POST /v1/follows").status).toBe(500);
    } finally {
      logs.restore();
    }
    const [warned, failed] = logs.lines;
    expect(warned).toMatchObject({ level: 40, operation: "POST /v1/follows", code: "body_interrupted" });
    expect(JSON.stringify(warned)).not.toContain("stack");
    expect(failed).toMatchObject({ level: 50, err: { stack: expect.stringContaining("boom") } });
  });
});
