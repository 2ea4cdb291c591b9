import { describe, expect, it } from "vitest";
import { VerbatimError } from "./index";

// The client's `retryable` is the closed list's (lib/http/error-codes.ts, generated into error-codes.ts): a job
// that failed on the server's side may work when asked again, one whose audio has no speech will not.
describe("VerbatimError.retryable", () => {
  it.each([
    ["download_failed", true],
    ["asr_failed", true],
    ["job_failed", true],
    ["no_speech", false],
    ["media_too_long", false],
    ["not_a_code", false],
  ])("%s → %s", (code, retryable) => {
    expect(new VerbatimError(code, "failed", null, { jobId: "job_1" }).retryable).toBe(retryable);
  });
});
