import { describe, expect, it } from "vitest";
import type { Segment } from "@/lib/formats/types";
import { ApiError } from "@/lib/http/errors";
import { prepareSave, type SaveJob } from "@/lib/edits/prepare-save";
import { INLINE_MAX_CHARS, isSmall, prepareSaveOffThread } from "@/lib/edits/save-off-thread";

// A save's CPU work in a worker thread (the real one: lib/process/off-thread.ts), with its deadline.

const words = (count: number, tag: string) => Array.from({ length: count }, (_, w) => `${tag}${w % 50}`).join(" ");

/** `count` word-timed segments of `perSegment` words, and the same list with every text rewritten. */
function job(count: number, perSegment: number): SaveJob {
  const current: Segment[] = Array.from({ length: count }, (_, i) => ({
    start: i * 10,
    end: i * 10 + 10,
    text: words(perSegment, "w"),
    words: words(perSegment, "w")
      .split(" ")
      .map((text, w) => ({ start: i * 10 + (w * 10) / perSegment, end: i * 10 + ((w + 1) * 10) / perSegment, text })),
  }));
  const segments = current.map((s, i) => ({ start: s.start, end: s.end, text: `${words(perSegment, "x")} w${i}` }));
  return { kind: "edit", body: { segments }, current, maxEnd: count * 10 };
}

const settings = { threads: 2, timeoutMs: 60_000 };

describe("prepareSaveOffThread", () => {
  it("a large save is prepared in a worker thread, with the same answer as on the spot", async () => {
    const large = job(60, 200);
    expect(isSmall(large)).toBe(false);
    const there = await prepareSaveOffThread(large, settings);
    expect(there).toEqual(prepareSave(large));
    expect(there).toMatchObject({ ok: true, sizeBytes: expect.any(Number) });
  });

  it("its 422 items come back from the thread", async () => {
    const large = job(60, 200);
    large.body.segments![59]!.end = 700;
    const there = await prepareSaveOffThread(large, settings);
    expect(there).toMatchObject({ ok: false, problems: [{ loc: ["body", "segments", 59, "end"] }] });
  });

  it("past its deadline the save is refused: 413 payload_too_large", async () => {
    const refusal = await prepareSaveOffThread(job(60, 200), { threads: 2, timeoutMs: 1 }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("a small save is prepared on the spot (no thread, no deadline to meet)", async () => {
    const small = job(5, 20);
    expect(isSmall(small)).toBe(true);
    await expect(prepareSaveOffThread(small, { threads: 2, timeoutMs: 1 })).resolves.toMatchObject({ ok: true });
    const file: SaveJob = { ...small, body: { format: "srt", content: "x".repeat(INLINE_MAX_CHARS + 1) } };
    expect(isSmall(file)).toBe(false);
  });
});
