import { describe, expect, it } from "vitest";
import { SettleTracker } from "./settle";

describe("SettleTracker", () => {
  it("settles a file only once its size and time stayed the same for settleMs, never at first sight", () => {
    const settle = new SettleTracker(5000);
    const look = { size: 100, mtimeMs: 1 };
    expect(settle.observe("a.mp3", look, 0)).toBe(false);
    expect(settle.observe("a.mp3", look, 2000)).toBe(false);
    expect(settle.observe("a.mp3", look, 5000)).toBe(true);
  });

  it("a copy in progress (growing, or rewritten at the same size) starts the wait over", () => {
    const settle = new SettleTracker(5000);
    expect(settle.observe("a.mp3", { size: 100, mtimeMs: 1 }, 0)).toBe(false);
    expect(settle.observe("a.mp3", { size: 200, mtimeMs: 2 }, 4000)).toBe(false);
    expect(settle.observe("a.mp3", { size: 200, mtimeMs: 3 }, 8000)).toBe(false); // touched, same size
    expect(settle.observe("a.mp3", { size: 200, mtimeMs: 3 }, 12_000)).toBe(false);
    expect(settle.observe("a.mp3", { size: 200, mtimeMs: 3 }, 13_000)).toBe(true);
  });

  it("an empty file is never settled; settleMs 0 still needs two looks", () => {
    const settle = new SettleTracker(0);
    expect(settle.observe("empty", { size: 0, mtimeMs: 1 }, 0)).toBe(false);
    expect(settle.observe("empty", { size: 0, mtimeMs: 1 }, 10)).toBe(false);
    expect(settle.observe("b", { size: 1, mtimeMs: 1 }, 0)).toBe(false);
    expect(settle.observe("b", { size: 1, mtimeMs: 1 }, 1)).toBe(true);
  });

  it("reset and keepOnly forget what they are told to", () => {
    const settle = new SettleTracker(10);
    settle.observe("a", { size: 1, mtimeMs: 1 }, 0);
    settle.observe("b", { size: 1, mtimeMs: 1 }, 0);
    settle.reset("a");
    settle.keepOnly(new Set(["a"]));
    expect(settle.observe("a", { size: 1, mtimeMs: 1 }, 100)).toBe(false);
    expect(settle.observe("b", { size: 1, mtimeMs: 1 }, 100)).toBe(false);
    expect(settle.observe("a", { size: 1, mtimeMs: 1 }, 200)).toBe(true);
  });
});
