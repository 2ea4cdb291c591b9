import { describe, expect, expectTypeOf, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/error-codes";
import type { AsrErrorCode } from "@/lib/asr/types";
import type { MediaErrorCode } from "@/lib/media/errors";
import type { OutboundErrorCode } from "@/lib/http/outbound";
import { ATTEMPTS_EXHAUSTED, PermanentError, RetryableError, type JobFailure } from "@/lib/jobs/pipeline";

// Every failure a job can end in is a code of the closed list, with its status and retryability: the job's
// error.code, the transcript.failed event, the CLI's exit code and the client's `retryable` all read it there.
// The compiler closes the list: PermanentError, RetryableError and JobFailure take only an ErrorCode, and the error
// types whose code becomes a job's code (lib/transcripts/transcribe-pipeline.ts asJobError) have codes inside it,
// so a code outside lib/http/error-codes.ts is a type error where it is thrown (`npx tsc`, the typecheck step).

type InList<T extends ErrorCode> = T;
export type FailureCodes = InList<AsrErrorCode> | InList<MediaErrorCode> | InList<OutboundErrorCode>;

describe("job failure codes", () => {
  it("are typed as the closed list wherever a job's failure is made", () => {
    expectTypeOf<PermanentError["code"]>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<RetryableError["code"]>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<JobFailure["code"]>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<ConstructorParameters<typeof PermanentError>[0]>().toEqualTypeOf<ErrorCode>();
    // @ts-expect-error: a code outside the closed list does not compile.
    void new PermanentError("bad_input", "The input can never work");
    // @ts-expect-error: nor for a retryable failure.
    void new RetryableError("upstream_busy", "Busy");
    expect(ATTEMPTS_EXHAUSTED in ERROR_CODES).toBe(true);
  });

  it("says what each failure means for a retry", () => {
    expect(ERROR_CODES.download_failed).toMatchObject({ status: 502, retryable: true });
    expect(ERROR_CODES.asr_failed).toMatchObject({ status: 502, retryable: true });
    expect(ERROR_CODES.no_speech).toMatchObject({ status: 422, retryable: false });
    expect(ERROR_CODES.dispatch_failed).toMatchObject({ status: 503, retryable: true });
    expect(ERROR_CODES.job_failed).toMatchObject({ status: 500, retryable: true });
  });
});
