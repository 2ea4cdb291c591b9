import { afterEach, describe, expect, it, vi } from "vitest";
import { createLeaseLoop, type LeaseLoop, type LeaseLoopOptions } from "@/lib/jobs/lease-loop";

// The loop without a database: a queue of numbers, rows that finish when the test says so.

interface Held {
  row: number;
  finish: () => void;
}

/** A claim's answer, looking at a clock of its own that the tests read back. */
let clock = 0;
const claimed = (rows: number[]) => ({ rows, lookedAt: ++clock });

function fakeQueue(rows: number[]) {
  const due = [...rows];
  const running: Held[] = [];
  const handedBack: number[][] = [];
  const claims: number[] = [];
  const options: LeaseLoopOptions<number> = {
    concurrency: 2,
    claim: async (limit) => {
      claims.push(limit);
      return claimed(due.splice(0, limit));
    },
    run: (row) => new Promise<void>((resolve) => running.push({ row, finish: resolve })),
    handBack: async () => void handedBack.push(running.map((r) => r.row)),
    pollMs: 60_000,
    listen: { channel: "unused", url: null },
    log: () => undefined,
  };
  return { due, running, handedBack, claims, options };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 10));

let loop: LeaseLoop | undefined;
afterEach(async () => {
  await loop?.stop(10);
  loop = undefined;
});

describe("lease loop", () => {
  it("claims only as many rows as it has free slots, and claims again when one finishes", async () => {
    const queue = fakeQueue([1, 2, 3]);
    loop = createLeaseLoop(queue.options);
    await loop.start();
    expect(queue.running.map((r) => r.row)).toEqual([1, 2]);
    expect(queue.claims).toEqual([2]);
    expect(loop.running).toBe(2);
    queue.running.shift()!.finish();
    await flush();
    expect(queue.running.map((r) => r.row)).toEqual([2, 3]);
    expect(queue.claims).toEqual([2, 1]);
  });

  it("a wake-up during a claim makes it look again once the claim ends", async () => {
    const queue = fakeQueue([]);
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    loop = createLeaseLoop({
      ...queue.options,
      claim: async (limit) => {
        calls++;
        // The first claim's snapshot predates the row: it finds nothing.
        if (calls === 1) return first.then(() => claimed([]));
        return claimed(queue.due.splice(0, limit));
      },
    });
    const started = loop.start();
    queue.due.push(7);
    loop.wake();
    release();
    await started;
    await flush();
    expect(queue.running.map((r) => r.row)).toEqual([7]);
  });

  it("wakes through the in-process subscription and stops listening to it at stop", async () => {
    const queue = fakeQueue([]);
    let wakeUp: (() => void) | undefined;
    loop = createLeaseLoop({
      ...queue.options,
      subscribe: (wake) => {
        wakeUp = wake;
        return () => (wakeUp = undefined);
      },
    });
    await loop.start();
    queue.due.push(4);
    wakeUp!();
    await flush();
    expect(queue.running.map((r) => r.row)).toEqual([4]);
    queue.running[0]!.finish();
    await loop.stop(1_000);
    expect(wakeUp).toBeUndefined();
  });

  it("stop claims no more, waits for the running rows, then hands back", async () => {
    const queue = fakeQueue([1, 2, 3]);
    loop = createLeaseLoop(queue.options);
    await loop.start();
    const stopping = loop.stop(5_000);
    await flush();
    expect(queue.handedBack).toEqual([]);
    queue.running[0]!.finish();
    queue.running[1]!.finish();
    await stopping;
    expect(queue.claims).toEqual([2]);
    expect(queue.handedBack).toHaveLength(1);
    expect(queue.due).toEqual([3]);
  });

  it("past the stop's timeout it aborts everything, then hands back what is still running", async () => {
    const queue = fakeQueue([1, 2]);
    const aborts: string[] = [];
    loop = createLeaseLoop({
      ...queue.options,
      abort: (which) => {
        aborts.push(which);
        if (which === "all") queue.running.forEach((r) => r.finish());
      },
    });
    await loop.start();
    await loop.stop(20);
    expect(aborts).toEqual(["interruptible", "all"]);
    expect(queue.handedBack).toEqual([[1, 2]]);
  });

  it("a failed claim is logged and the next wake-up claims again", async () => {
    const queue = fakeQueue([5]);
    const lines: string[] = [];
    let fail = true;
    loop = createLeaseLoop({
      ...queue.options,
      claim: async (limit) => {
        if (fail) {
          fail = false;
          throw new Error("connection refused");
        }
        return claimed(queue.due.splice(0, limit));
      },
      log: (line) => lines.push(line),
    });
    await loop.start();
    expect(lines).toEqual(["claim failed: connection refused"]);
    loop.wake();
    await flush();
    expect(queue.running.map((r) => r.row)).toEqual([5]);
  });

  it("a failed claim is tried again on its own, long before the poll", async () => {
    vi.useFakeTimers();
    try {
      const queue = fakeQueue([5]);
      let fail = true;
      loop = createLeaseLoop({
        ...queue.options,
        pollMs: 3_600_000,
        claim: async (limit) => {
          if (fail) {
            fail = false;
            throw new Error("connection refused");
          }
          return claimed(queue.due.splice(0, limit));
        },
      });
      await loop.start();
      expect(queue.running).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(queue.running.map((r) => r.row)).toEqual([5]);
    } finally {
      vi.useRealTimers();
    }
  });

  // A row that settles in the same tick as the pump's last answer wakes the loop just as the pump ends; however the
  // two fall (the row settling so many steps after that answer), the wake-up is not lost.
  it("a wake-up that comes as a pump ends is not lost", async () => {
    for (let steps = 0; steps < 12; steps++) {
      const queue = fakeQueue([1]);
      let armed = 0;
      loop = createLeaseLoop({
        ...queue.options,
        pollMs: 3_600_000,
        msUntilNextDue: async () => {
          // Once row 1 runs: row 2 is queued, and row 1 settles `steps` microtasks after this answer.
          if (armed++ === 0 && queue.running.length === 1) {
            queue.due.push(2);
            let settle = Promise.resolve();
            for (let i = 0; i < steps; i++) settle = settle.then(() => undefined);
            void settle.then(() => queue.running[0]!.finish());
          }
          return null;
        },
      });
      await loop.start();
      await flush();
      expect(
        queue.running.map((r) => r.row),
        `settled ${steps} steps after`,
      ).toEqual([1, 2]);
      await loop.stop(10);
      loop = undefined;
    }
  });

  // A row that falls due after the claim looked and before the next due time is read (the second query waiting
  // longer for the database than the claim did) would have neither been claimed nor timed: the due time is asked
  // from the time the claim itself looked, by the database's clock, not from a look back this process measured.
  it("asks the next due time from when its last claim looked, by the claim's own clock", async () => {
    const queue = fakeQueue([1]);
    const looks: number[] = [];
    const asked: number[] = [];
    loop = createLeaseLoop({
      ...queue.options,
      claim: async (limit) => {
        const answer = claimed(queue.due.splice(0, limit));
        looks.push(answer.lookedAt);
        return answer;
      },
      msUntilNextDue: async (since) => {
        asked.push(since);
        return null;
      },
    });
    await loop.start();
    expect(looks).toHaveLength(2);
    expect(asked).toEqual([looks[1]]);
  });
});
