import { describe, expect, it } from "vitest";
import { batchProgress, isBatchActive } from "@/lib/client/imports";

describe("import batches in the dashboard", () => {
  it("progress counts every finished item, and is 0 before listing", () => {
    expect(batchProgress({ total: 0, done: 0, failed: 0, skipped: 0 })).toBe(0);
    expect(batchProgress({ total: 8, done: 3, failed: 1, skipped: 2 })).toBe(75);
    expect(batchProgress({ total: 2, done: 2, failed: 1, skipped: 0 })).toBe(100);
  });

  it("only queued and running batches are polled", () => {
    expect(["queued", "running", "done", "partial", "error"].filter((status) => isBatchActive({ status: status as never }))).toEqual(["queued", "running"]);
  });
});
