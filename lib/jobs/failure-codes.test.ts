import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/error-codes";
import type { AsrErrorCode } from "@/lib/asr/types";
import type { MediaErrorCode } from "@/lib/media/errors";
import type { OutboundErrorCode } from "@/lib/http/outbound";
import { ATTEMPTS_EXHAUSTED } from "@/lib/jobs/pipeline";

// Every failure a job can end in is a code of the closed list, with its status and retryability: the job's
// error.code, the transcript.failed event, the CLI's exit code and the client's `retryable` all read it there.

// The error types whose code becomes a job's code (lib/transcripts/transcribe-pipeline.ts asJobError): a code
// outside the closed list is a compile error here.
type InList<T extends ErrorCode> = T;
export type FailureCodes = InList<AsrErrorCode> | InList<MediaErrorCode> | InList<OutboundErrorCode>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("job failure codes", () => {
  it("every code a step throws or the runner stores is in lib/http/error-codes.ts", () => {
    const thrown = new Set<string>([ATTEMPTS_EXHAUSTED]);
    for (const file of sources(path.resolve("lib"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/new (?:PermanentError|RetryableError|AsrError|MediaError)\(\s*"([a-z_]+)"/g)) {
        thrown.add(match[1]);
      }
      if (file.includes(`${path.sep}jobs${path.sep}`)) {
        for (const match of text.matchAll(/\{ code: "([a-z_]+)", message/g)) thrown.add(match[1]);
      }
    }
    for (const code of ["download_failed", "no_speech", "asr_failed", "job_failed", "dispatch_failed"]) {
      expect(thrown).toContain(code);
    }
    expect([...thrown].filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it("says what each failure means for a retry", () => {
    expect(ERROR_CODES.download_failed).toMatchObject({ status: 502, retryable: true });
    expect(ERROR_CODES.asr_failed).toMatchObject({ status: 502, retryable: true });
    expect(ERROR_CODES.no_speech).toMatchObject({ status: 422, retryable: false });
  });
});
