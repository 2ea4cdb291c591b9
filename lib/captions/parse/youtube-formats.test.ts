import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { LINES, timeLines } from "@/test/fakes/youtube/fixtures/speech";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";

import {
  CaptionParseError,
  cleanText,
  decodeEntities,
  parseCaptions,
  parseJson3,
  parseSrv3,
  parseTranscriptXml,
  parseVtt,
  sniffFormat,
} from "./index";

const DIR = fileURLToPath(new URL("../../../test/fakes/youtube/fixtures/timedtext/", import.meta.url));
const fixture = (name: string) => readFileSync(`${DIR}${FAKE_IDS.captioned}.${name}`, "utf8");

describe("decodeEntities / cleanText", () => {
  it("decodes named and numeric entities", () => {
    expect(decodeEntities("Tom &amp; Jerry &quot;live&quot; &gt;&gt; &lt;3 &#39;hi&#39; &#x2014; &apos;")).toBe(
      `Tom & Jerry "live" >> <3 'hi' \u2014 '`,
    );
    expect(decodeEntities("caf&eacute; na&iuml;ve &Uuml;ber &szlig; &hellip; &euro;5 &nbsp;")).toBe(
      "café naïve Über ß … €5 \u00a0",
    );
  });

  it("decodes the classic format's double escaping when asked, and only then", () => {
    expect(decodeEntities("I&amp;#39;m &amp;quot;here&amp;quot; &amp;gt;&amp;gt; you", true)).toBe(`I'm "here" >> you`);
    expect(decodeEntities("a &amp;lt;b&amp;gt; c")).toBe("a &lt;b&gt; c");
  });

  it("decodes every HTML name with its own case (the second parser lowercased them: &Eacute; became é)", () => {
    expect(
      decodeEntities("&Eacute;cole &eacute;t&eacute; &iacute;ndice &Iacute; &euro;5 &Ntilde;and&uacute; &OElig;uvre"),
    ).toBe("École été índice Í €5 Ñandú Œuvre");
  });

  it("leaves unknown entities, names without ';' and bare ampersands as written; invalid numbers become U+FFFD", () => {
    expect(decodeEntities("AT&T &bogus; &notice &amp fish & chips")).toBe("AT&T &bogus; &notice &amp fish & chips");
    expect(decodeEntities("&#xD800; &#0;")).toBe("\ufffd \ufffd");
  });

  it("strips tags, escaped tags too, and collapses whitespace", () => {
    expect(cleanText('<font color="#E5E5E5">so</font> <i>this</i>\n  is<br/>it')).toBe("so this is it");
    expect(cleanText("&lt;font color=&quot;#CCCCCC&quot;&gt;quiet&lt;/font&gt; words", { xml: true })).toBe(
      "quiet words",
    );
    expect(cleanText("hey<00:00:01.469><c> there</c>")).toBe("hey there");
    expect(cleanText("a < b and c > d, I <3 bread")).toBe("a < b and c > d, I <3 bread");
    expect(cleanText("\n")).toBe("");
    expect(cleanText("one\u00a0two\u3000three")).toBe("one two three");
  });
});

/** Manual English captions as the fixtures should read once parsed. */
const manualEn = () => LINES.map(([, en]) => en);

describe("parsers on the fixtures (manual English)", () => {
  const timed = timeLines();

  it("json3", () => {
    const cues = parseJson3(fixture("en.json3"));
    expect(cues.map((c) => c.text)).toEqual(manualEn());
    expect(cues.map((c) => c.start)).toEqual(timed.map((t) => t.startMs / 1000));
    expect(cues.every((c) => c.end > c.start && !c.append)).toBe(true);
  });

  it("srv3: &#39; &quot; &gt; and two-row captions", () => {
    const body = fixture("en.srv3");
    expect(body).toContain("&#39;");
    expect(body).toContain("&quot;");
    expect(body).toContain("&gt;&gt;");
    const cues = parseSrv3(body);
    expect(cues.map((c) => c.text)).toEqual(manualEn());
    expect(cues.map((c) => c.start)).toEqual(timed.map((t) => t.startMs / 1000));
  });

  it("classic transcript XML: &amp;#39; &amp;quot; &amp;gt;", () => {
    const body = fixture("en.xml");
    expect(body).toContain("we&amp;#39;re");
    expect(body).toContain("&amp;quot;oven spring.&amp;quot;");
    expect(body).toContain("&amp;gt;&amp;gt; Hey");
    const cues = parseTranscriptXml(body);
    expect(cues.map((c) => c.text)).toEqual(manualEn());
    expect(cues[1]?.text).toBe(">> Hey everyone, welcome back to Kitchen Physics!");
    expect(cues[24]?.text).toBe('Bakers call this the "oven spring."');
    expect(cues.map((c) => c.start)).toEqual(timed.map((t) => t.startMs / 1000));
  });

  it("WebVTT", () => {
    const cues = parseVtt(fixture("en.vtt"));
    expect(cues.map((c) => c.text)).toEqual(manualEn());
  });

  it("German, with umlauts and typographic quotes intact", () => {
    for (const name of ["de.json3", "de.srv3", "de.xml", "de.vtt"]) {
      const cues = parseCaptions(fixture(name));
      expect(
        cues.map((c) => c.text),
        name,
      ).toEqual(LINES.map(([, , de]) => de));
    }
    expect(parseCaptions(fixture("de.xml"))[24]?.text).toBe("Bäcker nennen das den „Ofentrieb“.");
  });
});

describe("parsers on the fixtures (auto captions)", () => {
  const asrLines = LINES.map(([asr]) => asr);

  it("json3: word events joined, newline-only aAppend events kept as empty appended cues", () => {
    const cues = parseJson3(fixture("en.asr.json3"));
    expect(cues.length).toBeGreaterThanOrEqual(60);
    const appended = cues.filter((c) => c.append);
    expect(appended.length).toBe(asrLines.length - 1);
    expect(appended.every((c) => c.text === "")).toBe(true);
    expect(cues.filter((c) => !c.append).map((c) => c.text)).toEqual(asrLines);
    // Word events stay up until the event after next starts: they overlap in time.
    const words = cues.filter((c) => !c.append);
    expect(words.slice(0, -1).some((c, i) => c.end > (words[i + 1]?.start ?? Infinity))).toBe(true);
  });

  it("srv3 and classic XML read as the same lines", () => {
    expect(
      parseSrv3(fixture("en.asr.srv3"))
        .filter((c) => c.text !== "")
        .map((c) => c.text),
    ).toEqual(asrLines);
    expect(parseTranscriptXml(fixture("en.asr.xml")).map((c) => c.text)).toEqual(asrLines);
  });

  it("WebVTT rolls: each line shows up in two or three cues", () => {
    const cues = parseVtt(fixture("en.asr.vtt"));
    expect(cues.length).toBe(asrLines.length * 2 - 1);
    expect(cues[4]?.text).toBe(`${asrLines[1]} ${asrLines[2]}`);
    expect(cues[5]?.text).toBe(asrLines[2]);
  });
});

describe("parser edge cases", () => {
  it("json3: aAppend with text, events without segs, missing durations", () => {
    const cues = parseJson3(
      JSON.stringify({
        wireMagic: "pb3",
        events: [
          { tStartMs: 0, dDurationMs: 5000, id: 1, wpWinPosId: 1 },
          { tStartMs: 100, dDurationMs: 900, segs: [{ utf8: "so" }, { utf8: " this", tOffsetMs: 200 }] },
          { tStartMs: 1000, dDurationMs: 500, aAppend: 1, segs: [{ utf8: " works" }] },
          { tStartMs: 1500, segs: [{ utf8: "Tom &amp; Jerry" }] },
          { tStartMs: "x", segs: [{ utf8: "bad time" }] },
        ],
      }),
    );
    expect(cues).toEqual([
      {
        start: 0.1,
        end: 1,
        text: "so this",
        words: [
          { start: 0.1, end: 0.3, text: "so" },
          { start: 0.3, end: 1, text: "this" },
        ],
      },
      { start: 1, end: 1.5, text: "works", append: true, words: [{ start: 1, end: 1.5, text: "works" }] },
      // One seg of several words is a line timed as a whole (a manual track's event): no word times.
      { start: 1.5, end: 1.5, text: "Tom & Jerry" },
    ]);
    expect(parseJson3("{}")).toEqual([]);
    expect(() => parseJson3("not json")).toThrow(CaptionParseError);
    expect(() => parseJson3('{"events": 3}')).toThrow(CaptionParseError);
  });

  it("srv3: self-closing and appended paragraphs, <br/>", () => {
    const cues = parseSrv3(
      '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><head><pen id="1" b="1"/></head><body>' +
        '<p t="0" d="1000"/><p t="1000" d="2000">one<br/>two &amp;#39;three&amp;#39;</p><p t="3000" d="10" a="1">\n</p></body></timedtext>',
    );
    expect(cues).toEqual([
      { start: 0, end: 1, text: "" },
      { start: 1, end: 3, text: "one two 'three'" },
      { start: 3, end: 3.01, text: "", append: true },
    ]);
  });

  it("classic: attributes in any order, empty texts", () => {
    const cues = parseTranscriptXml(
      '<transcript><text dur="1.5" start="2.25">a &amp;amp; b</text><text start="4" dur="1"/></transcript>',
    );
    expect(cues).toEqual([
      { start: 2.25, end: 3.75, text: "a & b" },
      { start: 4, end: 5, text: "" },
    ]);
  });

  it("WebVTT: CRLF, cue ids, NOTE blocks, hours optional", () => {
    const cues = parseVtt(
      "WEBVTT\r\n\r\nNOTE made by hand\r\n\r\n1\r\n00:01.000 --> 00:02.500 line:0\r\nfirst &amp; only\r\n",
    );
    expect(cues).toEqual([{ start: 1, end: 2.5, text: "first & only" }]);
    expect(() => parseVtt("<transcript/>")).toThrow(CaptionParseError);
  });

  it("sniffs the format", () => {
    expect(sniffFormat(' {"events":[]}')).toBe("json3");
    expect(sniffFormat('<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">')).toBe("srv3");
    expect(sniffFormat('<?xml version="1.0" encoding="utf-8" ?><transcript>')).toBe("transcript");
    expect(sniffFormat("\ufeffWEBVTT\n")).toBe("vtt");
    expect(sniffFormat("<html>")).toBeNull();
    expect(() => parseCaptions("<html></html>")).toThrow(CaptionParseError);
  });
});
