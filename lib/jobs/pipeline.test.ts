import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkedContext,
  currentContext,
  definePipeline,
  findPipeline,
  PermanentError,
  pipelinesByName,
  RetryableError,
  storedFailureCode,
  toJobFailure,
  type Pipeline,
} from "@/lib/jobs/pipeline";
import { backoffDelay } from "@/lib/jobs/drivers/local";

type Ctx = { a?: number; b?: number; c?: number };

const pipeline: Pipeline<Ctx> = {
  name: "unit",
  context: z.object({ a: z.number().optional(), b: z.number().optional(), c: z.number().optional() }),
  steps: [
    { name: "first", run: async () => ({ a: 1, b: 1 }) },
    { name: "second", run: async () => ({ b: 2 }) },
    { name: "third", run: async () => ({ c: 3 }) },
  ],
  onFailure: async () => {},
};

describe("pipeline definitions", () => {
  it("finds the pipelines a driver is given by name, and refuses two with one name", () => {
    const pipelines = pipelinesByName([pipeline]);
    expect(findPipeline(pipelines, "unit")).toBe(pipeline);
    expect(findPipeline(pipelines, "other")).toBeUndefined();
    expect(() => pipelinesByName([pipeline, { ...pipeline }])).toThrow(/Two pipelines are named "unit"/);
  });

  it("refuses duplicate and reserved step names", () => {
    const step = { name: "x", run: async () => {} };
    expect(definePipeline(pipeline)).toBe(pipeline);
    expect(() => definePipeline({ ...pipeline, name: "dup", steps: [step, step] })).toThrow(/used twice/);
    expect(() => definePipeline({ ...pipeline, name: "res", steps: [{ ...step, name: "finish-job" }] })).toThrow(
      /reserved/,
    );
  });

  it("checks a step's context against the schema: passed on unchanged when it fits, a PermanentError when not", () => {
    const ctx = { a: 1, extra: "kept" } as Ctx;
    expect(checkedContext(pipeline, ctx)).toBe(ctx);
    const error = (() => {
      try {
        checkedContext(pipeline, { a: "one" } as unknown as Ctx);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PermanentError);
    expect(error).toMatchObject({
      code: "invalid_job_context",
      message: expect.stringMatching(/does not fit pipeline "unit": a: /),
    });
  });
});

describe("currentContext", () => {
  it("merges checkpointed outputs over the input in pipeline order, ignoring unknown steps", () => {
    const job = {
      id: "j",
      input: { pipeline: "unit", context: { a: 0 } },
      checkpoints: { second: { b: 2 }, first: { a: 1, b: 1 }, gone: { c: 9 } },
    };
    expect(currentContext(pipeline, job)).toEqual({ a: 1, b: 2 });
  });

  it("rejects a job without { pipeline, context }", () => {
    expect(() => currentContext(pipeline, { id: "j", input: { context: {} }, checkpoints: {} })).toThrow(
      PermanentError,
    );
  });
});

describe("failures", () => {
  it("keeps a code from PermanentError, RetryableError or an error with a code of the closed list", () => {
    expect(toJobFailure(new PermanentError("upload_not_found", "Gone"))).toEqual({
      code: "upload_not_found",
      message: "Gone",
    });
    expect(toJobFailure(new RetryableError("download_failed", "Busy"))).toEqual({
      code: "download_failed",
      message: "Busy",
    });
    expect(toJobFailure(Object.assign(new Error("x"), { code: "upstream_failed" }))).toEqual({
      code: "upstream_failed",
      message: "x",
    });
    expect(toJobFailure(Object.assign(new Error("y"), { code: "ECONNRESET" }))).toEqual({
      code: "job_failed",
      message: "y",
    });
    // A snake_case code outside lib/http/error-codes.ts is not stored: nothing downstream could read it.
    expect(toJobFailure(Object.assign(new Error("z"), { code: "source_gone" }))).toEqual({
      code: "job_failed",
      message: "z",
    });
    expect(toJobFailure("weird")).toEqual({ code: "job_failed", message: "weird" });
  });

  it("reads a stored code as one of the closed list", () => {
    expect(storedFailureCode(null, "attempts_exhausted")).toBe("attempts_exhausted");
    expect(storedFailureCode("no_speech", "attempts_exhausted")).toBe("no_speech");
    expect(storedFailureCode("bad_input", "attempts_exhausted")).toBe("job_failed");
  });

  it("backs off 1 s, 2 s, 4 s … up to 5 min", () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffDelay(20)).toBe(300_000);
    expect(backoffDelay(3, { baseMs: 100, factor: 3, maxMs: 500 })).toBe(500);
  });
});
