import { afterEach, describe, expect, it } from "vitest";
import { isInteractive } from "./output";

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
