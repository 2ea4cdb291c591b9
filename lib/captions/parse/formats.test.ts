import { describe, expect, it } from "vitest";

import { subtitleFile } from "@/test/fakes/ytdlp/server";

import {
  CaptionParseError,
  decodeEntities,
  dedupe,
  isM3u8,
  mergeHlsVtt,
  parseCaptions,
  parseClockMs,
  parseJson3,
  parseM3u8Segments,
  parseSrt,
  parseSrv3,
  parseTtml,
  parseVtt,
  sniffFormat,
  tidy,
  type Cue,
} from "./index";

/** The cues without their word times (the word times have tests of their own, in words.test.ts). */
const withoutWords = (cues: readonly Cue[]): Cue[] => cues.map(({ words: _words, ...cue }) => cue);

describe("parseClockMs", () => {
  it("reads hh:mm:ss.ttt, mm:ss.ttt, comma decimals and long hours", () => {
    expect(parseClockMs("00:00:01.500")).toBe(1500);
    expect(parseClockMs("01:02:03.004")).toBe(3723004);
    expect(parseClockMs("02:03.250")).toBe(123250);
    expect(parseClockMs("00:00:04,200")).toBe(4200);
    expect(parseClockMs("100:00:00.000")).toBe(360000000);
    expect(parseClockMs("0:00:01.5")).toBe(1500);
  });

  it("refuses malformed times", () => {
    expect(parseClockMs("1.5")).toBeNull();
    expect(parseClockMs("00:61:00.000")).toBeNull();
    expect(parseClockMs("aa:bb:cc.ddd")).toBeNull();
    expect(parseClockMs("")).toBeNull();
  });
});

describe("decodeEntities", () => {
  it("decodes named, decimal and hex references", () => {
    expect(decodeEntities("Tom &amp; Jerry &lt;3 &quot;hi&quot; it&#39;s &#x2019; &nbsp;x")).toBe(
      'Tom & Jerry <3 "hi" it\'s \u2019 \u00a0x',
    );
    expect(decodeEntities("caf&eacute; &hellip;")).toBe("café …");
  });

  it("leaves unknown references and bare ampersands alone", () => {
    expect(decodeEntities("&bogus; & alone")).toBe("&bogus; & alone");
  });
});

describe("parseVtt", () => {
  it("parses cues with and without hours, identifiers and cue settings", () => {
    const vtt = [
      "WEBVTT",
      "",
      "1",
      "00:00:00.500 --> 00:00:03.000 line:85% align:center",
      "Hello",
      "",
      "intro",
      "00:03.200 --> 00:06.800 position:10%",
      "World",
      "",
    ].join("\n");
    expect(withoutWords(parseVtt(vtt))).toEqual([
      { start: 0.5, end: 3, text: "Hello" },
      { start: 3.2, end: 6.8, text: "World" },
    ]);
  });

  it("skips NOTE, STYLE and REGION blocks and header metadata", () => {
    const segs = withoutWords(parseVtt(subtitleFile("vimeo-en.vtt")));
    expect(segs).toEqual([
      { start: 0.5, end: 3, text: "This is Verbatim:", speaker: "Narrator" },
      { start: 3.2, end: 6.8, text: "from link to transcript in one request." },
      { start: 7, end: 142.5, text: "Thanks for watching." },
    ]);
    const withRegion =
      "WEBVTT\nKind: captions\nLanguage: en\n\nREGION\nid:fred width:40%\n\nNOTE\nmulti\nline\n\n00:00:01.000 --> 00:00:02.000 region:fred\nHi\n";
    expect(withoutWords(parseVtt(withRegion))).toEqual([{ start: 1, end: 2, text: "Hi" }]);
  });

  it("removes <c>, <v>, <i>, inline timestamps and decodes entities", () => {
    const vtt =
      "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v.loud Bob>it&#39;s</v><00:00:00.500><c.colorE5E5E5> a</c> <i>test</i> &amp; more&nbsp;here\n";
    expect(withoutWords(parseVtt(vtt))).toEqual([
      { start: 0, end: 2, text: "it's a test & more here", speaker: "Bob" },
    ]);
  });

  it("copes with CRLF, a BOM, a header that runs into the first cue, and blank runs", () => {
    const vtt =
      "\ufeffWEBVTT\r\n00:00:01.000 --> 00:00:02.000\r\nOne\r\n\r\n\r\n\r\n00:00:03.000 --> 00:00:04.000\r\nTwo\r\n";
    expect(withoutWords(parseVtt(vtt))).toEqual([
      { start: 1, end: 2, text: "One" },
      { start: 3, end: 4, text: "Two" },
    ]);
  });

  it("drops cues with broken timings; cues with empty text go at tidy/dedupe", () => {
    const vtt =
      "WEBVTT\n\n00:00:01.000 --> soon\nBroken\n\n00:00:02.000 --> 00:00:03.000\n<c> </c>\n\n00:00:04.000 --> 00:00:05.000\nKept\n";
    expect(withoutWords(parseVtt(vtt))).toEqual([
      { start: 2, end: 3, text: "" },
      { start: 4, end: 5, text: "Kept" },
    ]);
    expect(tidy(parseVtt(vtt))).toEqual([{ start: 4, end: 5, text: "Kept" }]);
  });

  it("keeps a one-space line inside a cue (YouTube auto captions) instead of splitting there", () => {
    const vtt =
      "WEBVTT\n\n00:00:00.160 --> 00:00:02.050 align:start position:0%\n \nhello<00:00:00.560><c> everyone</c>\n";
    expect(withoutWords(parseVtt(vtt))).toEqual([{ start: 0.16, end: 2.05, text: "hello everyone" }]);
  });

  it("removes rolling duplicates of auto captions when asked", () => {
    const text = subtitleFile("youtube-auto.vtt");
    // A 10 ms hold cue only repeats: its line stays up until the next line starts.
    expect(withoutWords(dedupe(parseVtt(text)))).toEqual([
      { start: 0.16, end: 2.06, text: "hello everyone and welcome" },
      { start: 2.06, end: 4.799, text: "to the show" },
      { start: 4.799, end: 7, text: "today we talk captions" },
    ]);
    // Without dedupe every repeated line stays.
    expect(parseVtt(text).map((s) => s.text)).toEqual([
      "hello everyone and welcome",
      "hello everyone and welcome",
      "hello everyone and welcome to the show",
      "to the show",
      "to the show today we talk captions",
    ]);
  });

  it("dedupe keeps a line that repeats something older than the previous cue", () => {
    const vtt =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nNo.\n\n00:00:02.000 --> 00:00:03.000\nYes.\n\n00:00:03.000 --> 00:00:04.000\nNo.\n";
    expect(dedupe(parseVtt(vtt)).map((s) => s.text)).toEqual(["No.", "Yes.", "No."]);
  });
});

describe("parseSrt", () => {
  it("parses CRLF SRT with <i> tags, ASS codes and entities", () => {
    expect(withoutWords(parseSrt(subtitleFile("facebook-en_US.srt")))).toEqual([
      { start: 1, end: 4.2, text: "Behind the scenes at the Verbatim office." },
      { start: 4.6, end: 8, text: "We transcribed a whole conference in an afternoon." },
      { start: 8.3, end: 11.9, text: "Here's how." },
    ]);
  });

  it("tolerates missing indexes, dot decimals, whitespace-only separators and <font>", () => {
    const srt =
      '00:00:01.000 --> 00:00:02.000\n<font color="#fff">One</font>\n  \n2\n00:00:03,000 --> 00:00:04,000\nTwo\n';
    expect(withoutWords(parseSrt(srt))).toEqual([
      { start: 1, end: 2, text: "One" },
      { start: 3, end: 4, text: "Two" },
    ]);
  });
});

describe("parseJson3", () => {
  it("joins segs, skips window events; newline appends are empty cues that tidy drops", () => {
    const cues = parseJson3(subtitleFile("youtube-auto.json3"));
    expect(cues.filter((c) => c.append).map((c) => c.text)).toEqual([""]);
    expect(tidy(cues)).toEqual([
      { start: 0.16, end: 4.789, text: "hello everyone and welcome" },
      { start: 2.06, end: 7, text: "to the show" },
      { start: 4.799, end: 7, text: "today we talk captions & more" },
    ]);
  });

  it("splits manual multi-line events into one text and tolerates missing durations", () => {
    const doc = {
      events: [
        { tStartMs: 1000, segs: [{ utf8: "line one\nline two" }] },
        { tStartMs: "x", segs: [{ utf8: "bad" }] },
      ],
    };
    expect(withoutWords(parseJson3(JSON.stringify(doc)))).toEqual([{ start: 1, end: 1, text: "line one line two" }]);
  });

  it("throws on something that is not json3; an event-less document is an empty track", () => {
    expect(() => parseJson3("not json")).toThrow(/not valid JSON/);
    expect(() => parseJson3('{"events": {}}')).toThrow(CaptionParseError);
    expect(withoutWords(parseJson3('{"wireMagic":"pb3"}'))).toEqual([]);
  });
});

describe("srv3 and TTML", () => {
  it("reads srv3 <p t d>", () => {
    const srv3 =
      '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body><p t="1200" d="2300">Hello <s>there</s></p><p t="4000" d="1000">a&amp;b<br/>c</p></body></timedtext>';
    expect(withoutWords(parseSrv3(srv3))).toEqual([
      { start: 1.2, end: 3.5, text: "Hello there" },
      { start: 4, end: 5, text: "a&b c" },
    ]);
  });

  it("reads TTML clock and offset times, begin/end and begin/dur", () => {
    const ttml =
      '<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="00:00:01.000" end="00:00:02.500">One</p><p begin="3s" dur="1500ms">Two<br />lines</p><p begin="bad">Three</p></div></body></tt>';
    expect(parseTtml(ttml)).toEqual([
      { start: 1, end: 2.5, text: "One" },
      { start: 3, end: 4.5, text: "Two lines" },
    ]);
  });
});

describe("parseCaptions / sniffFormat", () => {
  it("sniffs the format from the content", () => {
    expect(sniffFormat("WEBVTT\n\n")).toBe("vtt");
    expect(sniffFormat('{"events":[]}')).toBe("json3");
    expect(sniffFormat("1\n00:00:01,000 --> 00:00:02,000\nx")).toBe("srt");
    expect(sniffFormat("<tt xmlns=...>")).toBe("ttml");
    expect(sniffFormat('<?xml version="1.0"?><timedtext>')).toBe("srv3");
    expect(sniffFormat('<?xml version="1.0" encoding="utf-8" ?><tt:tt xmlns:tt="http://www.w3.org/ns/ttml">')).toBe(
      "ttml",
    );
    expect(sniffFormat("00:00:01.000 --> 00:00:02.000\nNo header")).toBe("srt");
    expect(sniffFormat("hello")).toBeNull();
  });

  it("trusts the content over a wrong declared format", () => {
    expect(withoutWords(parseCaptions("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi\n", "srt"))).toEqual([
      { start: 1, end: 2, text: "Hi" },
    ]);
    expect(withoutWords(parseCaptions("1\n00:00:01,000 --> 00:00:02,000\nHi\n", "vtt"))).toEqual([
      { start: 1, end: 2, text: "Hi" },
    ]);
    expect(() => parseCaptions("hello")).toThrow(CaptionParseError);
  });
});

describe("HLS WebVTT", () => {
  it("lists segment URLs relative to the playlist", () => {
    const playlist = subtitleFile("x-en.m3u8");
    expect(isM3u8(playlist)).toBe(true);
    expect(isM3u8("WEBVTT")).toBe(false);
    expect(parseM3u8Segments(playlist, "https://cdn.example/a/b/en.m3u8?x=1")).toEqual([
      "https://cdn.example/a/b/seg-0.vtt",
      "https://cdn.example/a/b/seg-1.vtt",
      "https://cdn.example/a/b/seg-2.vtt",
    ]);
    expect(
      parseM3u8Segments(
        "#EXTM3U\n#EXTINF:1,\n/abs/0.vtt\n#EXTINF:1,\nhttps://other.example/1.vtt\n",
        "https://cdn.example/a/en.m3u8",
      ),
    ).toEqual(["https://cdn.example/abs/0.vtt", "https://other.example/1.vtt"]);
  });

  it("merges segments: continued cues joined, X-TIMESTAMP-MAP offsets applied", () => {
    const segs = mergeHlsVtt([
      subtitleFile("x-en-seg-0.vtt"),
      subtitleFile("x-en-seg-1.vtt"),
      subtitleFile("x-en-seg-2.vtt"),
    ]);
    expect(segs).toEqual([
      { start: 0.4, end: 3.9, text: "Three things we learned building a transcript API." },
      { start: 4.1, end: 9.25, text: "One: people paste every kind of link you can imagine." },
      { start: 9.5, end: 14, text: "Short links, share links, links with tracking junk & fragments." },
      { start: 18.5, end: 21.7, text: "Two: captions beat speech-to-text" },
      { start: 22, end: 27.3, text: "whenever the platform has them." },
      { start: 28, end: 35, text: "Three: timestamps matter more than you'd think." },
      { start: 40.5, end: 44, text: "That\u2019s it. Thread below." },
    ]);
  });

  it("drops a cue repeated whole in the next segment", () => {
    const a = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:05.000 --> 00:00:07.000\nSame\n";
    const b =
      "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:05.000 --> 00:00:07.000\nSame\n\n00:00:08.000 --> 00:00:09.000\nNext\n";
    expect(withoutWords(mergeHlsVtt([a, b]))).toEqual([
      { start: 5, end: 7, text: "Same" },
      { start: 8, end: 9, text: "Next" },
    ]);
  });

  it("handles segments without a timestamp map", () => {
    expect(
      withoutWords(
        mergeHlsVtt(["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n", "WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nB\n"]),
      ),
    ).toEqual([
      { start: 1, end: 2, text: "A" },
      { start: 3, end: 4, text: "B" },
    ]);
  });
});
