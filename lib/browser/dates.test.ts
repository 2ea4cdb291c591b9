import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "@/lib/browser/dates";

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

describe("one date format", () => {
  it("writes dates and times one way, from an ISO string, a Date or milliseconds alike", () => {
    expect(formatDate("2025-03-04T05:06:07Z")).toBe("4 Mar 2025");
    expect(formatDate(new Date("2025-09-30T00:00:00Z"))).toBe("30 Sep 2025");
    expect(formatDateTime(Date.UTC(2025, 11, 31, 14, 5, 9))).toBe("31 Dec 2025, 14:05 UTC");
    expect(formatDateTime("2025-12-31T14:05:09Z", { seconds: true })).toBe("31 Dec 2025, 14:05:09 UTC");
  });

  it("is the same text in every time zone (the server's and the reader's), in UTC", () => {
    const late = "2025-03-04T23:30:00Z";
    const written = new Set<string>();
    for (const tz of ["UTC", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata"]) {
      process.env.TZ = tz;
      written.add(`${formatDate(late)} | ${formatDateTime(late)}`);
    }
    expect([...written]).toEqual(["4 Mar 2025 | 4 Mar 2025, 23:30 UTC"]);
  });

  it("says a dash for what is not a date", () => {
    expect(formatDate("not a date")).toBe("—");
    expect(formatDateTime("")).toBe("—");
  });
});
