import { describe, expect, it } from "vitest";
import { CJK_MAX_BIGRAMS, cjkBigrams, rewriteCjkQuery, runBigrams, spaceCjkPhrases } from "@/lib/search/cjk";

// A query's CJK runs stand for at most CJK_MAX_BIGRAMS bigrams in all, whatever their length: the query text
// the search statement parses (rewriteCjkQuery) and the tsquery it runs (spaceCjkPhrases) are bounded.

const TEXT =
  "欢迎来到开源项目我们可以提供各式数据让你的比特币使用体验有进一步的提升我们为您提供简洁明了的内存池面板查看比特币节点的实时内存池状态";
const long = (n: number) => [...TEXT.repeat(Math.ceil(n / [...TEXT].length))].slice(0, n).join("");
const bigramsOf = (text: string) =>
  text.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]{1,2}/g) ?? [];
const quoted = (tsquery: string) => tsquery.match(/'[^']*'/g) ?? [];

describe("runBigrams", () => {
  it("keeps every bigram of a run that fits", () => {
    expect(runBigrams("比特币", 32)).toEqual([
      { bigram: "比特", at: 0 },
      { bigram: "特币", at: 1 },
    ]);
    expect(runBigrams(long(33), 32)).toHaveLength(32);
  });

  it("then every second bigram (and the last), so that each character is still pinned", () => {
    const run = long(60); // 59 bigrams
    const picked = runBigrams(run, 32);
    expect(picked.map((p) => p.at)).toEqual(Array.from({ length: 30 }, (_, i) => 2 * i));
    const covered = new Set(picked.flatMap((p) => [p.at, p.at + 1]));
    expect(covered.size).toBe(60);
    for (const p of picked) expect(p.bigram).toBe(cjkBigrams(run)[p.at]);
  });

  it("then `cap` bigrams spread from the first to the last, at most `cap` for any length", () => {
    for (const n of [66, 100, 250, 500]) {
      const picked = runBigrams(long(n), 32);
      expect(picked).toHaveLength(32);
      expect(picked[0]!.at).toBe(0);
      expect(picked.at(-1)!.at).toBe(n - 2);
      expect(picked.every((p, i) => i === 0 || p.at > picked[i - 1]!.at)).toBe(true);
    }
  });
});

describe("a query's CJK bigrams are bounded", () => {
  it("a 500-character run becomes at most CJK_MAX_BIGRAMS bigrams (it was 499)", () => {
    const q = long(500);
    expect(bigramsOf(rewriteCjkQuery(q)).length).toBeLessThanOrEqual(CJK_MAX_BIGRAMS);
  });

  it("shares the bound among the runs of a query", () => {
    const q = `${long(120)} grit ${long(90)} -${long(80)} "${long(70)}"`;
    const terms = bigramsOf(rewriteCjkQuery(q));
    expect(terms.length).toBeGreaterThan(8);
    expect(terms.length).toBeLessThanOrEqual(CJK_MAX_BIGRAMS);
  });

  it("leaves short runs as they were: every bigram, adjacent", () => {
    expect(rewriteCjkQuery("mempool 比特币节点").replace(/\s+/g, " ").trim()).toBe('mempool "比特 特币 币节 节点"');
    expect(spaceCjkPhrases("'比特' <-> '特币'", "比特币")).toBe("'比特' <-> '特币'");
  });

  it("gives a thinned run's phrase its distances in the tsquery the statement runs", () => {
    const q = long(59); // 58 bigrams: every second one, then the last (one character after the one before)
    const picked = runBigrams(q, CJK_MAX_BIGRAMS);
    // websearch_to_tsquery's text of the rewritten query: the picked bigrams, adjacent.
    const parsed = picked.map((p) => `'${p.bigram}'`).join(" <-> ");
    const spaced = spaceCjkPhrases(parsed, q);
    expect(quoted(spaced)).toHaveLength(picked.length);
    expect(spaced.match(/<\d+>/g)).toEqual([...Array.from({ length: 28 }, () => "<2>"), "<1>"]);
    expect(spaced).not.toContain("<->");
    // Inside an exclusion and beside other words, only the run's own steps change.
    const mixed = `'grit' & !( ${parsed} )`;
    expect(spaceCjkPhrases(mixed, `grit -${q}`)).toBe(`'grit' & !( ${spaced} )`);
  });
});
