import { describe, expect, it } from "vitest";
import { EXIT, exitCodeFor } from "./errors";

describe("exitCodeFor", () => {
  it.each([
    [401, "unauthorized", EXIT.auth],
    [401, "invalid_token", EXIT.auth],
    [402, "allowance_exhausted", EXIT.allowance],
    [null, "allowance_exhausted", EXIT.allowance], // a failed job's code
    [404, "not_found", EXIT.notFound],
    [404, "video_unavailable", EXIT.notFound],
    [422, "unsupported_source", EXIT.usage],
    [422, "video_unplayable", EXIT.usage], // the platform refuses this item: asking again will not help
    [null, "upstream_blocked", EXIT.upstream], // a failed job's code
    [400, null, EXIT.usage],
    [502, "upstream_failed", EXIT.upstream],
    [503, "upstream_blocked", EXIT.upstream],
    [503, "asr_not_configured", EXIT.upstream],
    [409, "not_complete", EXIT.other],
    [429, "rate_limited", EXIT.other],
    // A job that failed on the server exits 6 as docs/cli.md says, whatever its own code.
    [null, "transcription_failed", EXIT.upstream],
    [null, "asr_failed", EXIT.upstream],
    [null, "download_failed", EXIT.upstream],
    [null, "job_failed", EXIT.upstream],
    [null, "upstream_dns_failed", EXIT.upstream],
    [502, "upstream_refused", EXIT.upstream],
    [null, "asr_model_missing", EXIT.upstream],
    [null, "upload_not_found", EXIT.notFound],
    [null, "unsupported_source", EXIT.usage], // the request itself, not the server
    [null, "video_unplayable", EXIT.usage],
    // The closed list's other job failure codes: the server or a provider failed → 6; the audio
    // itself (no speech in it) is the request's fault → 2.
    [null, "asr_rejected", EXIT.upstream],
    [null, "convert_failed", EXIT.upstream],
    [null, "attempts_exhausted", EXIT.upstream],
    [null, "no_speech", EXIT.usage],
  ])("%s %s → %i", (status, code, exit) => {
    expect(exitCodeFor(status, code)).toBe(exit);
  });
});
