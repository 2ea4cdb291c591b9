import { describe, expect, it, vi } from "vitest";

// Next.js can bundle lib/http/errors.ts more than once; an ApiError made by one copy (say, by the
// process-wide rate limiter) must still be an ApiError to withApi's copy, or a 429 becomes a 500.
describe("ApiError across module copies", () => {
  it("instanceof holds for an error made by another copy of the module, and subclasses keep their identity", async () => {
    const first = await import("@/lib/http/errors");
    vi.resetModules();
    const second = await import("@/lib/http/errors");
    expect(second.ApiError).not.toBe(first.ApiError);

    const fromFirst = first.errors.rateLimited(30);
    expect(fromFirst instanceof second.ApiError).toBe(true);
    expect(new Error("plain") instanceof second.ApiError).toBe(false);
    expect({ status: 429 } instanceof second.ApiError).toBe(false);

    class Narrower extends second.ApiError {}
    expect(new Narrower("upload_exists", "y") instanceof Narrower).toBe(true);
    expect(new Narrower("upload_exists", "y") instanceof second.ApiError).toBe(true);
    expect(fromFirst instanceof Narrower).toBe(false);
  });
});
