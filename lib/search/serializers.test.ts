import { describe, expect, it } from "vitest";
import type { MomentRow } from "@/lib/search/find-moments";
import { MARK_END, MARK_START } from "@/lib/search/search-statement";
import { CONTEXT_CHARS, serializeMoment } from "@/lib/search/serializers";

// A passage is ~200 characters of whole segments, so one holding a recogniser's answer in one piece is as
// long as that segment: what an answer carries of it must still be bounded.

function row(texts: string[], marked: string): MomentRow {
  return {
    transcriptId: "t1",
    seq: 0,
    rank: 0.5,
    pid: 1n,
    title: "Giant",
    platform: "youtube",
    videoId: "dQw4w9WgXcQ",
    lang: "en",
    sourceUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    segFrom: 0,
    texts,
    starts: texts.map((_, i) => i * 10),
    ends: texts.map((_, i) => i * 10 + 10),
    start: 0,
    end: texts.length * 10,
    marked,
    slug: null,
  };
}

describe("a moment of a giant segment", () => {
  const filler = "lorem ipsum dolor sit amet ";
  const before = filler.repeat(3000);
  const giant = `${before}the marathon ${filler.repeat(3000)}`.trim();

  it("carries at most about CONTEXT_CHARS of the passage in context.text, around the match", () => {
    expect(giant.length).toBeGreaterThan(150_000);
    const marked = giant.replace("marathon", `${MARK_START}marathon${MARK_END}`);
    const moment = serializeMoment(
      row(["Before.", giant, "After."], `Before. ${marked} After.`),
      { kind: "public" },
      [],
    );
    expect(moment.context.text.length).toBeLessThanOrEqual(CONTEXT_CHARS + 2);
    expect(moment.context.text).toContain("the marathon");
    expect(moment.context.text.startsWith("…")).toBe(true);
    expect(moment.snippet.length).toBeLessThanOrEqual(302);
    expect(moment.highlights.map(([a, b]) => moment.snippet.slice(a, b))).toEqual(["marathon"]);
    expect(moment.segment_index).toBe(1);
  });

  it("leaves an ordinary passage whole", () => {
    const texts = ["Grit is living life like it's a marathon,", "not a sprint."];
    const joined = texts.join(" ");
    const moment = serializeMoment(
      row(texts, joined.replace("marathon", `${MARK_START}marathon${MARK_END}`)),
      { kind: "public" },
      [],
    );
    expect(moment.context.text).toBe(joined);
  });
});
