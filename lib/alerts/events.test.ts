import { describe, expect, it } from "vitest";
import { alertMailText, clock } from "@/lib/alerts/events";

describe("an alert's mail", () => {
  it("names each transcript and its moments with their times, lines and links", () => {
    const text = alertMailText(
      { name: "Keeper", query: "lighthouse" },
      [
        {
          transcript_id: "t1",
          title: "The keeper",
          platform: "youtube",
          source_url: "https://www.youtube.com/watch?v=x",
          matched_at: "2026-01-01T00:00:00.000Z",
          moments: [
            {
              start: 3725.4,
              end: 3730,
              segment_index: 41,
              text: "the lighthouse keeper",
              links: { source: "https://youtu.be/x?t=3725s", viewer: null, page: "https://v.test/t/keeper#t3725-41" },
            },
          ],
        },
      ],
      false,
    );
    expect(text).toContain('Your alert "Keeper" (lighthouse) matched a new transcript:');
    expect(text).toContain(
      "The keeper\n  1:02:05 (line 42) the lighthouse keeper\n    https://v.test/t/keeper#t3725-41",
    );
  });

  it("writes seconds as m:ss under an hour", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(65.9)).toBe("1:05");
    expect(clock(3600)).toBe("1:00:00");
  });
});
