import { describe, expect, it } from "vitest";

import { chaptersFromDescription, chaptersFromList, clockSeconds } from "./chapters";

describe("chapters", () => {
  it("clockSeconds", () => {
    expect(["0:00", "4:05", "1:02:03", "12:60", "1:60:00", "x"].map(clockSeconds)).toEqual([
      0,
      245,
      3723,
      null,
      null,
      null,
    ]);
  });

  it("a description with YouTube's chapter list (leading or trailing times, separators, brackets)", () => {
    const description =
      "My video.\n\n00:00 - Intro\n1:30 Setup | part one\n(5:00) The build\nWrap-up — 1:02:03\n\nFollow me!";
    expect(chaptersFromDescription(description, 4000)).toEqual([
      { start: 0, title: "Intro" },
      { start: 90, title: "Setup | part one" },
      { start: 300, title: "The build" },
      { start: 3723, title: "Wrap-up" },
    ]);
  });

  it("not chapters: fewer than three, not starting at 0:00, times past the end, a second list out of order", () => {
    expect(chaptersFromDescription("0:00 a\n1:00 b", 600)).toEqual([]);
    expect(chaptersFromDescription("0:10 a\n1:00 b\n2:00 c", 600)).toEqual([]);
    expect(chaptersFromDescription("0:00 a\n1:00 b\n2:00 c\n20:00 d", 600)).toEqual([
      { start: 0, title: "a" },
      { start: 60, title: "b" },
      { start: 120, title: "c" },
    ]);
    expect(chaptersFromDescription("0:00 a\n1:00 b\n2:00 c\nTimestamps again:\n0:00 a", 0)).toHaveLength(3);
    expect(chaptersFromDescription(null)).toEqual([]);
  });

  it("yt-dlp's chapters list", () => {
    expect(
      chaptersFromList([
        { start_time: 61.5, end_time: 120, title: "Second" },
        { start_time: 0, end_time: 61.5, title: " First  part " },
        { start_time: "x", title: "bad" },
        { start_time: 130, title: "" },
      ]),
    ).toEqual([
      { start: 0, title: "First part" },
      { start: 61.5, title: "Second" },
    ]);
    expect(chaptersFromList(null)).toEqual([]);
  });
});
