import { describe, expect, it } from "vitest";
import { waitUntil, withDeadline, WaitTimeout } from "./wait";

describe("waitUntil", () => {
  it("returns the probe's first value that is not false, null or undefined", async () => {
    let calls = 0;
    const value = await waitUntil("the third call", () => (++calls === 3 ? { calls } : null), { everyMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it("past its deadline, fails naming what it waited for and what it saw last (or the state it was given)", async () => {
    const seen = await waitUntil("a job to finish", () => false as const, { timeoutMs: 1, everyMs: 1 }).catch(
      (error: unknown) => error,
    );
    expect(seen).toBeInstanceOf(WaitTimeout);
    expect(String(seen)).toMatch(/waiting for a job to finish; last seen: false/);
    const state = await waitUntil("a job to finish", () => null, {
      timeoutMs: 1,
      everyMs: 1,
      state: () => ({ status: "running", stage: "recognising" }),
    }).catch((error: unknown) => error);
    expect(String(state)).toContain('{"status":"running","stage":"recognising"}');
  });

  it("probes again at once when the event it is given fires, without waiting out its interval", async () => {
    let wake: () => void = () => undefined;
    let ready = false;
    const waiting = waitUntil("the event", () => ready || null, {
      everyMs: 3_600_000,
      wakeOn: (w) => {
        wake = w;
        return () => (wake = () => undefined);
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    ready = true;
    wake();
    await expect(waiting).resolves.toBe(true);
  });
});

describe("withDeadline", () => {
  it("passes the promise's value through", async () => {
    await expect(withDeadline("a value", Promise.resolve(7))).resolves.toBe(7);
  });

  it("fails a promise that never settles, with what it waited for and the state read at the deadline", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(
      withDeadline("the engine to run job j1", never, { timeoutMs: 1, state: async () => ({ status: "queued" }) }),
    ).rejects.toThrow(/waiting for the engine to run job j1; last seen: \{"status":"queued"\}/);
  });
});
