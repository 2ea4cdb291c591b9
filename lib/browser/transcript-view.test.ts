import { describe, expect, it } from "vitest";
import {
  activeSegmentIndex,
  chapterStarts,
  findMatches,
  listenMessages,
  reportedPlaying,
  matchCountLabel,
  playingLine,
  filterCountLabel,
  reportedTime,
  splitByMatches,
} from "./transcript-view";

const segments = [
  { start: 0, end: 2, text: "Grit is passion and perseverance." },
  { start: 2.5, end: 5, text: "Grit is having stamina." },
  { start: 9, end: 12, text: "GRIT, again: grit." },
];

describe("playingLine", () => {
  it("at a landed moment is the moment's line, though the player reports its whole second, until playback moves on", () => {
    const lines = [{ start: 10.2 }, { start: 12.7 }, { start: 12.7 }, { start: 15 }];
    // Cued at 12.7 s, the embedded player says 12 s: the line before by the clock, the moment by intent.
    expect(activeSegmentIndex(lines, 12)).toBe(0);
    expect(playingLine(lines, 12, 1)).toBe(1);
    // Two lines starting in the same instant: the one the link named.
    expect(activeSegmentIndex(lines, 12.7)).toBe(2);
    expect(playingLine(lines, 12.7, 1)).toBe(1);
    // Played on, or elsewhere: the clock again.
    expect(playingLine(lines, 15.1, 1)).toBe(3);
    expect(playingLine(lines, 11, 1)).toBe(0);
    expect(playingLine(lines, 12, -1)).toBe(0);
    expect(playingLine(lines, null, 1)).toBe(-1);
  });
});

describe("activeSegmentIndex", () => {
  it("is -1 before anything plays and before the first line", () => {
    expect(activeSegmentIndex(segments, null)).toBe(-1);
    expect(activeSegmentIndex([{ start: 1 }], 0.5)).toBe(-1);
    expect(activeSegmentIndex([], 3)).toBe(-1);
  });

  it("is the last line that has started, through the pauses between lines", () => {
    expect(activeSegmentIndex(segments, 0)).toBe(0);
    expect(activeSegmentIndex(segments, 2.4)).toBe(1); // a report a quarter second early still counts
    expect(activeSegmentIndex(segments, 3)).toBe(1);
    expect(activeSegmentIndex(segments, 7)).toBe(1);
    expect(activeSegmentIndex(segments, 9)).toBe(2);
    expect(activeSegmentIndex(segments, 1e6)).toBe(2);
  });

  it("agrees with a linear scan on a long transcript", () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ start: i * 1.5 }));
    for (const t of [0, 1.49, 1.5, 700.3, 1498.6, 2000]) {
      const linear = many.reduce((found, s, i) => (s.start <= t + 0.25 ? i : found), -1);
      expect(activeSegmentIndex(many, t)).toBe(linear);
    }
  });
});

describe("findMatches", () => {
  it("finds every occurrence, case-insensitively, in reading order", () => {
    expect(findMatches(segments, "grit")).toEqual([
      { segment: 0, from: 0, to: 4 },
      { segment: 1, from: 0, to: 4 },
      { segment: 2, from: 0, to: 4 },
      { segment: 2, from: 13, to: 17 },
    ]);
  });

  it("treats the query as text, not a pattern, and spaces as any whitespace", () => {
    expect(findMatches([{ text: "a.b a*b (c)" }], "a*b")).toEqual([{ segment: 0, from: 4, to: 7 }]);
    expect(findMatches([{ text: "(c)" }], "(c)")).toHaveLength(1);
    expect(findMatches([{ text: "passion  and\nperseverance" }], " passion and ")).toEqual([
      { segment: 0, from: 0, to: 12 },
    ]);
  });

  it("finds nothing for an empty or blank query", () => {
    expect(findMatches(segments, "")).toEqual([]);
    expect(findMatches(segments, "   ")).toEqual([]);
  });

  it("matches letters outside ASCII case-insensitively", () => {
    expect(findMatches([{ text: "Über ÜBER über" }], "über")).toHaveLength(3);
  });
});

describe("splitByMatches", () => {
  it("cuts a line at its matches and numbers them among all matches", () => {
    const matches = findMatches(segments, "grit");
    expect(splitByMatches(segments[2].text, 2, matches)).toEqual([
      { text: "GRIT", match: 2 },
      { text: ", again: ", match: null },
      { text: "grit", match: 3 },
      { text: ".", match: null },
    ]);
    expect(splitByMatches("no hits here", 5, matches)).toEqual([{ text: "no hits here", match: null }]);
  });
});

describe("matchCountLabel", () => {
  it("says where the current match is, or that there is none", () => {
    expect(matchCountLabel(0, 4, "grit")).toBe("1 of 4");
    expect(matchCountLabel(0, 0, "zebra")).toBe("No matches");
    expect(matchCountLabel(0, 0, " ")).toBe("");
  });
});

describe("filterCountLabel", () => {
  it("counts the matches and the lines they are in, in the singular where there is one", () => {
    const found = findMatches(segments, " grit ");
    const lines = new Set(found.map((match) => match.segment)).size;
    expect(filterCountLabel(found.length, lines, " grit ")).toBe("4 matches for “grit” in 3 lines");
    expect(filterCountLabel(1, 1, "stamina")).toBe("1 match for “stamina” in 1 line");
    expect(filterCountLabel(0, 0, "zebra")).toBe("No matches for “zebra”");
  });
});

describe("chapterStarts", () => {
  it("puts each chapter at the first line at or after its start, dropping those past the end", () => {
    const chapters = [
      { start: 9, title: "Again" },
      { start: 0, title: "Intro" },
      { start: 1, title: "Stamina" },
      { start: 50, title: "After the end" },
      { start: 3, title: "  " },
    ];
    expect([...chapterStarts(segments, chapters)]).toEqual([
      [0, ["Intro"]],
      [1, ["Stamina"]],
      [2, ["Again"]],
    ]);
    expect(chapterStarts(segments, []).size).toBe(0);
  });
});

describe("player reports", () => {
  it("reads YouTube's infoDelivery and Vimeo's timeupdate, and nothing else", () => {
    expect(reportedTime("youtube", JSON.stringify({ event: "infoDelivery", info: { currentTime: 12.5 } }))).toBe(12.5);
    expect(reportedTime("youtube", JSON.stringify({ event: "infoDelivery", info: { volume: 3 } }))).toBeNull();
    expect(reportedTime("vimeo", { event: "timeupdate", data: { seconds: 4 } })).toBe(4);
    expect(reportedTime("vimeo", "not json")).toBeNull();
    expect(reportedTime("youtube", { event: "infoDelivery", info: { currentTime: "12" } })).toBeNull();
    expect(listenMessages("youtube").map((m) => JSON.parse(m))).toEqual([
      { event: "listening", id: "verbatim", channel: "widget" },
    ]);
  });

  it("reads whether the player plays: YouTube's playerState and state changes, Vimeo's play and pause", () => {
    expect(reportedPlaying("youtube", JSON.stringify({ event: "infoDelivery", info: { playerState: 1 } }))).toBe(true);
    expect(reportedPlaying("youtube", { event: "infoDelivery", info: { playerState: 2 } })).toBe(false);
    expect(reportedPlaying("youtube", { event: "onStateChange", info: 3 })).toBe(true);
    expect(reportedPlaying("youtube", { event: "infoDelivery", info: { currentTime: 4 } })).toBeNull();
    expect(reportedPlaying("vimeo", { event: "play" })).toBe(true);
    expect(reportedPlaying("vimeo", JSON.stringify({ event: "pause" }))).toBe(false);
    expect(reportedPlaying("vimeo", { event: "timeupdate", data: { seconds: 4 } })).toBeNull();
    expect(reportedPlaying("youtube", "not json")).toBeNull();
    expect(listenMessages("vimeo").map((m) => JSON.parse(m).value)).toEqual(
      expect.arrayContaining(["timeupdate", "play", "pause"]),
    );
  });
});
