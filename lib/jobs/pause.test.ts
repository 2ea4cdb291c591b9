import { describe, expect, it, vi } from "vitest";
import { pauseUnlessAborted } from "./pause";

describe("pauseUnlessAborted", () => {
  it("waits the time, ends at once on an abort, and never rejects", async () => {
    vi.useFakeTimers();
    try {
      let ended = false;
      const waiting = pauseUnlessAborted(1_000, new AbortController().signal).then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(ended).toBe(true);

      const ac = new AbortController();
      const cut = pauseUnlessAborted(60_000, ac.signal);
      ac.abort(new Error("stopping"));
      await expect(cut).resolves.toBeUndefined();
      expect(vi.getTimerCount()).toBe(0);

      await expect(pauseUnlessAborted(60_000, AbortSignal.abort())).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
