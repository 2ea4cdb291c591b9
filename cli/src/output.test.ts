import { afterEach, describe, expect, it } from "vitest";
import { isInteractive, wantsColor } from "./output";

const streams = { out: process.stdout.isTTY, err: process.stderr.isTTY };
const terminals = (out: boolean, err: boolean) => {
  Object.defineProperty(process.stdout, "isTTY", { value: out, configurable: true });
  Object.defineProperty(process.stderr, "isTTY", { value: err, configurable: true });
};

afterEach(() => terminals(streams.out, streams.err));

describe("isInteractive: colour and progress bars only on terminals, never with NO_COLOR", () => {
  it("both streams terminals", () => {
    terminals(true, true);
    expect(isInteractive({})).toBe(true);
  });
  it("stdout or stderr redirected", () => {
    terminals(false, true);
    expect(isInteractive({})).toBe(false);
    terminals(true, false);
    expect(isInteractive({})).toBe(false);
  });
  it("NO_COLOR set (any value but empty), or a dumb terminal", () => {
    terminals(true, true);
    expect(isInteractive({ NO_COLOR: "1" })).toBe(false);
    expect(isInteractive({ NO_COLOR: "" })).toBe(true);
    expect(isInteractive({ TERM: "dumb" })).toBe(false);
  });
});

describe("wantsColor: --color/--no-color, then NO_COLOR, then FORCE_COLOR, then terminals", () => {
  const cli = ["node", "verbatim", "get", "x"];
  it("colours terminals, and not a pipe, when nothing is asked", () => {
    terminals(true, true);
    expect(wantsColor({}, cli)).toBe(true);
    terminals(false, true);
    expect(wantsColor({}, cli)).toBe(false);
  });
  it("FORCE_COLOR colours a pipe; 0 or false turns colour off on a terminal", () => {
    terminals(false, false);
    expect(wantsColor({ FORCE_COLOR: "1" }, cli)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: "3" }, cli)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: "" }, cli)).toBe(false);
    terminals(true, true);
    expect(wantsColor({ FORCE_COLOR: "0" }, cli)).toBe(false);
    expect(wantsColor({ FORCE_COLOR: "false" }, cli)).toBe(false);
  });
  it("NO_COLOR wins over FORCE_COLOR; the last flag wins over both", () => {
    terminals(false, false);
    expect(wantsColor({ NO_COLOR: "1", FORCE_COLOR: "1" }, cli)).toBe(false);
    expect(wantsColor({ NO_COLOR: "1" }, [...cli, "--color"])).toBe(true);
    terminals(true, true);
    expect(wantsColor({ FORCE_COLOR: "1" }, [...cli, "--no-color"])).toBe(false);
    expect(wantsColor({}, [...cli, "--color", "--no-color"])).toBe(false);
    expect(wantsColor({}, [...cli, "--no-color", "--color"])).toBe(true);
  });
});
