import { describe, expect, it } from "vitest";
import { duration, timestamp } from "./format";

describe("CLI durations", () => {
  it("are said as people say them, the one function the dashboard and errors use", () => {
    expect(duration(4283)).toBe("1 h 11 min");
    expect(duration(243)).toBe("4 min 3 s");
    expect(duration(null)).toBe("-");
    expect(duration(undefined)).toBe("-");
  });

  it("positions in a recording stay a player's clock", () => {
    expect(timestamp(243)).toBe("4:03");
    expect(timestamp(4283)).toBe("1:11:23");
  });
});
