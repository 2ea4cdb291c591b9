import { describe, expect, it } from "vitest";
import { batchDonePercent, batchDownloadHref, isBatchOpen } from "@/lib/browser/batches";

describe("batches in the browser", () => {
  it("counts done, failed and skipped items as finished, and an empty batch as finished", () => {
    expect(batchDonePercent({ total: 8, done: 3, failed: 1, skipped: 2 })).toBe(75);
    expect(batchDonePercent({ total: 0, done: 0, failed: 0, skipped: 0 })).toBe(100);
  });

  it("is open while queued or running only", () => {
    expect(["queued", "running", "done", "partial", "error"].map((status) => isBatchOpen({ status } as never))).toEqual(
      [true, true, false, false, false],
    );
  });

  it("links the zip with the chosen formats", () => {
    expect(batchDownloadHref("cmx1", ["srt", "md"])).toBe("/v1/batches/cmx1/download?formats=srt%2Cmd");
  });
});
