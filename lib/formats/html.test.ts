import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import { parsePodcastHtml } from "@/lib/captions/parse/podcast";
import { REAL_CAPTION_FILES, readCaptionFile } from "@/test/fixtures/captions";
import { renderPodcastHtml } from "./html";
import { normalizeSegments } from "./normalize";

// The document is also well-formed XML (void <meta/>, only XML's entities), so an XML validator proves that
// every tag is closed and nothing from the transcript opened one.
function expectWellFormed(html: string) {
  expect(XMLValidator.validate(html)).toBe(true);
}

const META = { title: "Grit", lang: "en" };

describe("renderPodcastHtml", () => {
  it("is a whole minimal document: doctype, language, charset, title, then a <time> and a <p> per line", () => {
    const html = renderPodcastHtml(
      [
        { start: 0, end: 9, text: "We have an update planned." },
        { start: 9.5, end: 70, text: "You're triggering Tom right now." },
        { start: 3723.4, end: 3725, text: "An hour in." },
      ],
      META,
    );
    expectWellFormed(html);
    expect(html).toBe(
      [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8" />',
        "<title>Grit</title>",
        "</head>",
        "<body>",
        "<time>0:00</time>",
        "<p>We have an update planned.</p>",
        "<time>0:09.500</time>",
        "<p>You're triggering Tom right now.</p>",
        "<time>1:02:03.400</time>",
        "<p>An hour in.</p>",
        "</body>",
        "</html>",
        "",
      ].join("\n"),
    );
  });

  it("puts <cite>Name:</cite> where a named speaker starts, not on every line of theirs", () => {
    const html = renderPodcastHtml(
      [
        { start: 0, end: 2, text: "In today's episode,", speaker: "Sarah" },
        { start: 2, end: 4, text: "you'll learn.", speaker: "Sarah" },
        { start: 4, end: 6, text: "Hi Buzzsprout.", speaker: "Gillian" },
        { start: 6, end: 8, text: "Nobody named." },
        { start: 8, end: 9, text: "Back again.", speaker: "Sarah" },
      ],
      META,
    );
    expectWellFormed(html);
    const body = html.slice(html.indexOf("<body>\n") + 7, html.indexOf("</body>"));
    expect(body.split("\n").filter((line) => line.startsWith("<cite>"))).toEqual([
      "<cite>Sarah:</cite>",
      "<cite>Gillian:</cite>",
      "<cite>Sarah:</cite>",
    ]);
    expect(body).toMatch(/^<cite>Sarah:<\/cite>\n<time>0:00<\/time>\n<p>In today's episode,<\/p>\n<time>0:02<\/time>/);
    expect(body.match(/<time>/g)).toHaveLength(5);
  });

  it("escapes everything the transcript brings: text, speaker, title and language", () => {
    const html = renderPodcastHtml(
      [{ start: 1, end: 2, text: `</p><script>alert("x")</script> & 'q'`, speaker: '<b onclick="x">Eve</b>' }],
      { title: `A "title" </title><script>`, lang: `en"><script>` },
    );
    expectWellFormed(html);
    expect(html).not.toMatch(/<script|<b /);
    expect(html).toContain("<p>&lt;/p&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'</p>");
    expect(html).toContain("<cite>&lt;b onclick=&quot;x&quot;&gt;Eve&lt;/b&gt;:</cite>");
    expect(html).toContain('<html lang="en&quot;&gt;&lt;script&gt;">');
    expect(renderPodcastHtml([], { title: null, lang: "en" })).toContain(
      "<title>Transcript</title>\n</head>\n<body>\n</body>",
    );
  });

  it("writes every real caption file so that the podcast HTML parser reads back each line", () => {
    for (const f of REAL_CAPTION_FILES) {
      const segments = captionSegments(parseCaptions(readCaptionFile(f.file), f.format), f.kind);
      const html = renderPodcastHtml(segments, META);
      expectWellFormed(html);
      const normalized = normalizeSegments(segments);
      const cues = parsePodcastHtml(html);
      expect(
        cues.map((c) => c.text),
        f.file,
      ).toEqual(normalized.map((s) => s.text));
      // Each line's start to the millisecond: lines within one second no longer share a start.
      expect(cues.map((c) => c.start)).toEqual(normalized.map((s) => Math.round(s.start * 1000) / 1000));
    }
  });
});
