import { describe, expect, it } from "vitest";
import { isPermanent, PermanentError, RetryableError } from "@/lib/jobs/pipeline";

describe("isPermanent", () => {
  it("recognises a PermanentError from another copy of the module (another Next.js bundle)", async () => {
    expect(isPermanent(new PermanentError("invalid_job", "y"))).toBe(true);
    // A second, separately evaluated copy of pipeline.ts: its class is a different object.
    const copy = (await import(
      /* @vite-ignore */ `./pipeline.ts?copy=${Date.now()}`
    )) as typeof import("@/lib/jobs/pipeline");
    expect(copy.PermanentError).not.toBe(PermanentError);
    expect(isPermanent(new copy.PermanentError("upload_not_found", "Source gone"))).toBe(true);
    expect(isPermanent(new RetryableError("job_failed", "y"))).toBe(false);
    expect(isPermanent(new Error("plain"))).toBe(false);
    expect(isPermanent(null)).toBe(false);
  });
});
