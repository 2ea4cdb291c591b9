import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ffmpegFailed, runFfmpeg } from "./run-ffmpeg";
import { AsrError } from "./types";

describe("runFfmpeg", () => {
  let dir: string;
  let notExecutable: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "verbatim-run-ffmpeg-"));
    notExecutable = path.join(dir, "ffmpeg");
    await writeFile(notExecutable, "#!/bin/sh\nexit 0\n");
    await chmod(notExecutable, 0o644);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const startFailure = (command: string, notStarted: "unavailable" | "unavailable_when_missing") =>
    runFfmpeg(command, [], { timeoutMs: 5_000, notStarted }).then(
      () => null,
      (error: unknown) => error,
    );

  it("a missing ffmpeg is asr_unavailable, not retryable, either way", async () => {
    for (const notStarted of ["unavailable", "unavailable_when_missing"] as const) {
      const error = await startFailure(path.join(dir, "no-such-ffmpeg"), notStarted);
      expect(error).toBeInstanceOf(AsrError);
      expect(error).toMatchObject({ code: "asr_unavailable", retryable: false });
      expect((error as Error).message).toContain("could not be started");
    }
  });

  it("an ffmpeg that is there but cannot start: asr_unavailable or asr_failed, as the caller says", async () => {
    expect(await startFailure(notExecutable, "unavailable")).toMatchObject({ code: "asr_unavailable" });
    expect(await startFailure(notExecutable, "unavailable_when_missing")).toMatchObject({
      code: "asr_failed",
      retryable: false,
    });
  });

  it("resolves with the result whatever the exit code", async () => {
    const result = await runFfmpeg(process.execPath, ["-e", "process.stderr.write('bad input'); process.exit(3)"], {
      timeoutMs: 10_000,
      notStarted: "unavailable",
    });
    expect(result).toMatchObject({ code: 3, failure: null });
  });
});

describe("ffmpegFailed", () => {
  it("says what could not be done with the end of stderr; a timeout may pass on retry", () => {
    const error = ffmpegFailed("ffmpeg", "decode the audio", {
      code: 1,
      stdout: "",
      stderrTail: "line one\nline two\nInvalid data found",
      failure: null,
    });
    expect(error).toMatchObject({ code: "asr_failed", retryable: false });
    expect(error.message).toBe("ffmpeg could not decode the audio: line two Invalid data found");
    expect(
      ffmpegFailed("ffmpeg", "encode the speech-only audio", {
        code: null,
        stdout: "",
        stderrTail: "",
        failure: "timeout",
      }),
    ).toMatchObject({ message: "ffmpeg could not encode the speech-only audio: exit null", retryable: true });
  });
});
