import { describe, expect, it } from "vitest";
import { momentAnchor, momentFromLocation, momentSegment, parseMomentHash } from "./moment-link";
import { momentSeconds } from "./search";

describe("parseMomentHash", () => {
  it("reads the public page's #t<seconds>-<segment>", () => {
    expect(parseMomentHash("#t2554-542")).toEqual({ seconds: 2554, segment: 542 });
    expect(parseMomentHash("t0-0")).toEqual({ seconds: 0, segment: 0 });
    expect(parseMomentHash("#t891")).toEqual({ seconds: 891, segment: null });
  });
  it("refuses anything else", () => {
    for (const hash of [
      "",
      "#",
      "#transcript-lines",
      "#t",
      "#t-1",
      "#t12-",
      "#t1.5-2",
      "#t12-3x",
      "#T12-3",
      "#t1234567-1",
    ]) {
      expect(parseMomentHash(hash), hash).toBeNull();
    }
    expect(parseMomentHash(null)).toBeNull();
  });
});

describe("momentFromLocation", () => {
  it("takes the hash first, else History's t=", () => {
    expect(momentFromLocation("#t12-3", "?t=99")).toEqual({ seconds: 12, segment: 3 });
    expect(momentFromLocation("", "?transcript=abc&t=891.44")).toEqual({ seconds: 891.44, segment: null });
    expect(momentFromLocation("#main", "?transcript=abc")).toBeNull();
    expect(momentFromLocation("", "?t=-4")).toBeNull();
    expect(momentFromLocation("", "?t=12e3")).toBeNull();
  });
});

describe("momentSegment", () => {
  const segments = [{ start: 0 }, { start: 1.5 }, { start: 891.44 }, { start: 891.9 }, { start: 2554.2 }];
  it("lands on the named segment when it starts in the named second", () => {
    expect(momentSegment(segments, { seconds: 891, segment: 3 })).toBe(3);
    expect(momentSegment(segments, { seconds: 2554, segment: 4 })).toBe(4);
  });
  it("falls back to the time when the named segment does not match (a changed transcript)", () => {
    expect(momentSegment(segments, { seconds: 891, segment: 0 })).toBe(2);
    expect(momentSegment(segments, { seconds: 2554, segment: 99 })).toBe(4);
  });
  it("lands History's t= (the segment's own start, to the millisecond) on that segment, not the one before", () => {
    for (let i = 0; i < segments.length; i++) {
      const seconds = Number(momentSeconds(segments[i].start));
      expect(momentSegment(segments, { seconds, segment: null })).toBe(i);
    }
    expect(momentSegment(segments, { seconds: 891.899, segment: null })).toBe(2);
  });
  it("is the first segment before the first start, -1 with none", () => {
    expect(momentSegment([{ start: 5 }], { seconds: 1, segment: null })).toBe(0);
    expect(momentSegment([], { seconds: 1, segment: null })).toBe(-1);
  });
});

describe("momentAnchor", () => {
  it("is the id the search API's page links point at", () => {
    expect(momentAnchor(2554.9, 542)).toBe("t2554-542");
    expect(parseMomentHash(`#${momentAnchor(891.44, 3)}`)).toEqual({ seconds: 891, segment: 3 });
  });
});
