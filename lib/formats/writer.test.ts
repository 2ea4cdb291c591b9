import { describe, expect, it } from "vitest";
import { renderSrt } from "./srt";
import { renderVtt } from "./vtt";
import { PLAIN, Utf16Writer, clockWidth, decodeUtf16, textEscaping, writeText } from "./writer";

function written(fill: (w: Utf16Writer) => void, capacity = 16): string {
  const w = new Utf16Writer(capacity);
  fill(w);
  return w.finish();
}

describe("Utf16Writer", () => {
  it("writes clocks, including hours past 99", () => {
    const out = written((w) => {
      w.reserve(64);
      w.clock(0, 44);
      w.raw("|");
      w.clock(3_599_999, 46);
      w.raw("|");
      w.clock(360_000_001, 44);
    });
    expect(out).toBe("00:00:00,000|00:59:59.999|100:00:00,001");
    expect(clockWidth(99 * 3_600_000)).toBe(12);
    expect(clockWidth(100 * 3_600_000)).toBe(13);
  });

  it("writes integers of any safe size", () => {
    const out = written((w) => {
      for (const n of [0, 7, 10, 99, 100, 123456789, 999999999, 1e9, 1234567890123]) {
        w.reserve(20);
        w.int(n);
        w.raw(",");
      }
    });
    expect(out).toBe("0,7,10,99,100,123456789,999999999,1000000000,1234567890123,");
  });

  it("grows past its initial capacity and past the retained scratch size", () => {
    const chunk = "0123456789abcdef".repeat(64); // 1 KiB of code units
    const out = written((w) => {
      for (let i = 0; i < 5000; i++) {
        w.reserve(chunk.length);
        w.raw(chunk);
      }
    }, 1);
    expect(out.length).toBe(5000 * chunk.length);
    expect(out.slice(-chunk.length)).toBe(chunk);
    expect(out.slice(0, 16)).toBe("0123456789abcdef");
  });

  it("keeps two writers alive at once independent", () => {
    const a = new Utf16Writer(8);
    const b = new Utf16Writer(8);
    a.raw("first");
    b.raw("second");
    expect(a.finish()).toBe("first");
    expect(b.finish()).toBe("second");
  });

  it("renders identically when called repeatedly (scratch buffer reuse)", () => {
    const long = Array.from({ length: 3000 }, (_, i) => ({ start: i, end: i + 1, text: `cue ${i}` }));
    const first = renderSrt(long);
    const short = renderVtt([{ start: 0, end: 1, text: "x" }]);
    expect(renderSrt(long)).toBe(first);
    expect(short).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nx\n");
  });
});

describe("writeText", () => {
  const clean = (text: string, escaping = PLAIN) => written((w) => writeText(w, text, escaping));

  it("collapses whitespace and control runs and trims, like cleanText", () => {
    expect(clean("  a \n\n b\t\tc\r\nd\u00a0 e\u0000f\u2028g  ")).toBe("a b c d e f g");
    expect(clean("\u3000\ufeffx\u202f")).toBe("x");
    expect(clean("single")).toBe("single");
  });

  it("applies replacements and keeps non-ASCII text", () => {
    const esc = textEscaping({ "&": "&amp;", "<": "&lt;" });
    expect(clean("a&b <c> é 日本 🎉", esc)).toBe("a&amp;b &lt;c> é 日本 🎉");
  });

  it("shortens arrows when asked", () => {
    const esc = textEscaping({}, { arrows: true });
    expect(clean("a --> b ---> c -> d - -> e", esc)).toBe("a -> b -> c -> d - -> e");
    expect(clean("a --> b")).toBe("a --> b");
  });

  it("escapes lone surrogates only when asked", () => {
    const esc = textEscaping({}, { loneSurrogates: true });
    expect(clean("x\ud800y😀z\udfff", esc)).toBe("x\\ud800y😀z\\udfff");
  });

  it("rejects replacements it cannot apply safely", () => {
    expect(() => textEscaping({ " ": "_" })).toThrow();
    expect(() => textEscaping({ x: "a b" })).toThrow();
    expect(() => textEscaping({ ">": "&gt;" }, { arrows: true })).toThrow();
  });
});

describe("decodeUtf16", () => {
  it("gives the same string through Node's Buffer and through TextDecoder", () => {
    const text = "WEBVTT\n00:00:01.000 café 日本語 🎉 &amp;";
    const units = Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
    const padded = new Uint16Array(units.length + 5);
    padded.set(units);
    expect(decodeUtf16(padded, units.length, true)).toBe(text);
    expect(decodeUtf16(padded, units.length, false)).toBe(text);
  });

  it("releases the scratch buffer when a build throws", () => {
    expect(() =>
      Utf16Writer.build(10, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    // The next writer gets the shared scratch buffer again (it is not stuck "in use").
    const a = new Utf16Writer(10);
    const b = new Utf16Writer(10);
    expect(a.buf.buffer).not.toBe(b.buf.buffer);
    a.finish();
    const c = new Utf16Writer(10);
    expect(c.buf.buffer).toBe(a.buf.buffer);
    b.finish();
    c.finish();
  });
});
