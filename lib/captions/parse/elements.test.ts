import { describe, expect, it } from "vitest";
import { elements, replaceElements } from "./elements";
import { parseCaptions } from "./index";

/** A global regex that counts how often it is run. */
function counted(source: string, flags: string) {
  const re = new RegExp(source, flags);
  const runs = { n: 0 };
  const exec = re.exec.bind(re);
  re.exec = (text: string) => {
    runs.n++;
    return exec(text);
  };
  return { re, runs };
}

/** What the parsers' former one-regex scan found: [attributes, inner or null]. */
function byRegex(text: string): [string, string | null][] {
  return [...text.matchAll(/<p\b([^>]*?)(?:\/>|>([\s\S]*?)<\/p>)/gi)].map((m) => [m[1]!, m[2] ?? null]);
}

describe("elements", () => {
  it("finds what the one-regex scan found, self-closing and unclosed elements included", () => {
    const samples = [
      '<p t="1">a</p><p t="2"/><p t="3">b<s>c</s></p>',
      '<p t="1">a<p t="2">b</p>',
      '<p a="x/">in</p><P t="4">upper</P>',
      '<p t="1">never closed <p t="2"/> <p t="3">',
      "<param>no</param><p>yes</p><p",
      '<p t="1"><p t="2">x</p></p><p t="5">',
    ];
    for (const text of samples) {
      const found = [...elements(text, /<p\b/gi, /<\/p>/gi)].map((e) => [e.attrs, e.inner]);
      expect(found, text).toEqual(byRegex(text));
    }
  });

  it("looks for the closing tag once however many elements are left unclosed", () => {
    const text = '<p t="1">w '.repeat(10_000);
    const close = counted("<\\/p>", "gi");
    expect([...elements(text, /<p\b/gi, close.re)]).toEqual([]);
    expect(close.runs.n).toBe(1);
  });

  it("replaces closed pairs and leaves an unclosed one as it is", () => {
    expect(replaceElements("a<cite>S:</cite>b<cite>c", /<cite(?=>)/gi, /<\/cite>/gi, " ")).toBe("a b<cite>c");
  });
});

describe("the XML caption formats with unclosed elements", () => {
  it("read 100,000 unclosed <p>, <text> and TTML <p> elements as no cues, finding the later closed ones", () => {
    const n = 100_000;
    const srv3 = `<timedtext><body>${'<p t="1" d="1">w '.repeat(n)}<p t="5" d="1">last</p></body></timedtext>`;
    expect(parseCaptions(srv3, "srv3").map((c) => c.text)).toEqual([
      `${"w ".repeat(n)}last`.trim().replace(/\s+/g, " "),
    ]);
    const classic = `<transcript>${'<text start="1" dur="1">w '.repeat(n)}</transcript>`;
    expect(parseCaptions(classic, "transcript")).toEqual([]);
    const ttml = `<tt xmlns="http://www.w3.org/ns/ttml"><body>${'<p begin="1s" end="2s">w '.repeat(n)}</body></tt>`;
    expect(parseCaptions(ttml, "ttml")).toEqual([]);
    const html = `<time>0:01</time><p>${"<cite>".repeat(n)}text</p>`;
    expect(parseCaptions(html, "podcast-html")).toHaveLength(1);
  });
});
