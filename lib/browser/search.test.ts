import { describe, expect, it } from "vitest";
import {
  findTextOf,
  parseFindText,
  parseMomentSeconds,
  snippetParts,
  viewerFindHref,
  viewerMomentHref,
} from "@/lib/browser/search";
import { boldHighlights } from "@/lib/mcp/render";
import { cjkBigrams, cjkNeedles, rewriteCjkQuery } from "@/lib/search/cjk";
import { cutSnippet, mergeRanges, unmark } from "@/lib/search/serializers";
import { decodeCursor, encodeCursor } from "@/lib/search/schemas";
import { searchConfig } from "@/lib/search/config";

describe("CJK queries", () => {
  it("become phrases of bigrams, kept attached to - and to the user's quotes", () => {
    const rewrite = (q: string) => rewriteCjkQuery(q).replace(/\s+/g, " ").trim();
    expect(cjkBigrams("比特币")).toEqual(["比特", "特币"]);
    expect(cjkBigrams("比")).toEqual(["比"]);
    expect(rewrite("比特币")).toBe('"比特 特币"');
    expect(rewrite("mempool 比特币节点")).toBe('mempool "比特 特币 币节 节点"');
    expect(rewrite("-闪电网络 mempool")).toBe('-"闪电 电网 网络" mempool');
    expect(rewrite('"比特币 节点"')).toBe('"比特 特币 节点 "');
    expect(rewrite("grit OR 意志")).toBe("grit OR 意志");
    expect(cjkNeedles("比特币 -闪电 网络")).toEqual(["比特币", "网络"]);
  });
});

describe("snippets", () => {
  it("reads ts_headline's marks and merges ranges", () => {
    expect(unmark("a \ue000b\ue001 c \ue000d\ue001")).toEqual({
      text: "a b c d",
      ranges: [
        [2, 3],
        [6, 7],
      ],
    });
    expect(
      mergeRanges([
        [5, 8],
        [0, 2],
        [1, 3],
        [8, 9],
      ]),
    ).toEqual([
      [0, 3],
      [5, 9],
    ]);
  });

  it("cuts a long passage around its first match, moving the highlights with it", () => {
    const text = `${"lorem ipsum ".repeat(30)}the marathon ${"dolor sit ".repeat(30)}`;
    const at = text.indexOf("marathon");
    const { snippet, highlights } = cutSnippet(text, [[at, at + 8]]);
    expect(snippet.length).toBeLessThanOrEqual(302);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(highlights.map(([a, b]) => snippet.slice(a, b))).toEqual(["marathon"]);
  });

  it("draws the marks as parts, bold text and HTML-free strings", () => {
    expect(
      snippetParts("why bread rises", [
        [4, 9],
        [10, 15],
      ]),
    ).toEqual([
      { text: "why ", mark: false },
      { text: "bread", mark: true },
      { text: " ", mark: false },
      { text: "rises", mark: true },
    ]);
    expect(boldHighlights("why bread rises", [[4, 9]])).toBe("why **bread** rises");
    expect(viewerMomentHref({ transcript_id: "abc", start: 202.9691 })).toBe("/dashboard?transcript=abc&t=202.969");
    expect(parseMomentSeconds("5.685")).toBe(5.685);
    expect(parseMomentSeconds("202")).toBe(202);
    expect(parseMomentSeconds("-1")).toBeNull();
    expect(parseMomentSeconds("1e9")).toBeNull();
  });
});

describe("cursor and configuration", () => {
  it("round-trips offsets and refuses anything else", () => {
    expect(decodeCursor(encodeCursor(40))).toBe(40);
    expect(decodeCursor("bm9wZQ")).toBeNull();
    expect(decodeCursor(encodeCursor(5000))).toBeNull();
    expect(decodeCursor("!!")).toBeNull();
  });

  it("maps languages to PostgreSQL configurations, simple otherwise", () => {
    expect(searchConfig("en")).toBe("english");
    expect(searchConfig("pt-BR")).toBe("portuguese");
    expect(searchConfig("de_AT")).toBe("german");
    expect(searchConfig("zh-Hans")).toBe("simple");
    expect(searchConfig("ja")).toBe("simple");
  });
});

describe("the viewer's find box from a search of what was said", () => {
  it("keeps the words to find and drops the search's operators", () => {
    expect(findTextOf("bread")).toBe("bread");
    expect(findTextOf('  "bread  rises" ')).toBe("bread rises");
    expect(findTextOf("bread -toast")).toBe("bread");
    expect(findTextOf('bread -"sliced toast" rises')).toBe("bread rises");
    expect(findTextOf("bread OR cake")).toBe("bread");
    expect(findTextOf("-toast")).toBe("");
    expect(findTextOf("well-known")).toBe("well-known");
  });

  it("links to the transcript with the box filled, and reads it back bounded", () => {
    expect(viewerFindHref("tr_1", '"bread rises"')).toBe("/dashboard?transcript=tr_1&find=bread+rises");
    expect(viewerFindHref("tr_1", "-toast")).toBe("/dashboard?transcript=tr_1");
    expect(parseFindText(new URLSearchParams("find=bread+rises").get("find"))).toBe("bread rises");
    expect(parseFindText(null)).toBe("");
    expect(parseFindText("x".repeat(500))).toHaveLength(200);
  });
});
