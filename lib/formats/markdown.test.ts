import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { SAMPLE_META, makeLongTranscript } from "@/test/formats/fixtures";
import { deepLinkPrefix, escapeMarkdown, markdownUrl, renderMarkdown } from "./markdown";
import { normalizeSegments } from "./normalize";
import { MESSY, SHORT } from "@/test/formats/helpers";
import type { Segment, TranscriptMeta } from "./types";

const md = new MarkdownIt(); // CommonMark + GFM tables/strikethrough; no linkify, no raw-HTML passthrough issues

const YT: TranscriptMeta = SAMPLE_META;
const VIMEO: TranscriptMeta = {
  title: "Vimeo talk",
  sourceUrl: "https://vimeo.com/76979871",
  platform: "vimeo",
  videoId: "76979871",
  lang: "en",
};
const OTHER: TranscriptMeta = {
  title: null,
  sourceUrl: "https://example.com/media/42",
  platform: "podcast",
  videoId: "42",
  lang: "de",
};

interface Link {
  href: string;
  text: string;
}

/** Renders with markdown-it and returns, per paragraph, its links and its plain text content. */
function renderedParagraphs(markdown: string): { links: Link[]; text: string }[] {
  const tokens = md.parse(markdown, {});
  const out: { links: Link[]; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== "paragraph_open") continue;
    const inline = tokens[i + 1];
    const links: Link[] = [];
    let text = "";
    let current: Link | null = null;
    for (const child of inline.children ?? []) {
      if (child.type === "link_open") current = { href: String(child.attrGet("href") ?? ""), text: "" };
      else if (child.type === "link_close" && current) {
        links.push(current);
        current = null;
      } else if (child.type === "text" || child.type === "code_inline") {
        if (current) current.text += child.content;
        text += child.content;
      } else if (child.type === "softbreak" || child.type === "hardbreak") text += "\n";
      else if (child.type !== "link_open" && child.type !== "link_close") text += `<${child.type}>`; // emphasis, html... = escaping failure
    }
    out.push({ links, text });
  }
  return out;
}

function clockToSeconds(clock: string): number {
  return clock.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
}

describe("escapeMarkdown", () => {
  it("escapes inline-significant characters and leaves others", () => {
    expect(escapeMarkdown("a*b_c`d[e]f<g>h|i~j&k#l\\m")).toBe("a\\*b\\_c\\`d\\[e\\]f\\<g\\>h\\|i\\~j\\&k\\#l\\\\m");
    expect(escapeMarkdown("Plain text. Really!")).toBe("Plain text. Really!");
  });

  it("renders tricky text literally through a real CommonMark parser", () => {
    const nasty =
      "**bold** _em_ `code` [link](http://x.y) ![img](a.png) <b>html</b> &amp; &copy; a|b ~~del~~ \\* # not a heading http://bare.example";
    const html = md.renderInline(escapeMarkdown(nasty));
    expect(html).not.toMatch(/<(strong|em|code|a|img|b|del)\b/);
    const text = md
      .parseInline(escapeMarkdown(nasty), {})[0]
      .children!.map((c) => c.content)
      .join("");
    expect(text).toBe(nasty);
  });
});

describe("markdownUrl / deepLinkPrefix", () => {
  it("only links http(s) URLs and makes them safe as destinations", () => {
    expect(markdownUrl("https://example.com/a b(c)")).toBe("https://example.com/a%20b%28c%29");
    expect(markdownUrl("javascript:alert(1)")).toBeNull();
    expect(markdownUrl("ftp://example.com")).toBeNull();
    expect(markdownUrl("")).toBeNull();
  });

  it("builds YouTube and Vimeo deep links only", () => {
    expect(deepLinkPrefix("youtube", "abc")).toBe("https://www.youtube.com/watch?v=abc&t=");
    expect(deepLinkPrefix("YouTube", "a&b")).toBe("https://www.youtube.com/watch?v=a%26b&t=");
    expect(deepLinkPrefix("vimeo", "123")).toBe("https://vimeo.com/123#t=");
    expect(deepLinkPrefix("podcast", "123")).toBeNull();
    expect(deepLinkPrefix("youtube", "")).toBeNull();
  });
});

describe("renderMarkdown", () => {
  it("renders a short YouTube transcript exactly", () => {
    expect(renderMarkdown(SHORT, YT)).toBe(
      [
        "# Sample talk",
        "",
        "Source: [https://www.youtube.com/watch?v=dQw4w9WgXcQ](https://www.youtube.com/watch?v=dQw4w9WgXcQ)",
        "",
        "[00:00](https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=0s) Hello world. Second line with newline Fish \\& chips \\<b\\>bold\\</b\\> --\\> arrow",
        "",
      ].join("\n"),
    );
  });

  it("parses to a heading, a source link and timestamp links to the right moments", () => {
    const input: Segment[] = [
      { start: 0.4, end: 10, text: "Intro." },
      { start: 65.9, end: 70, text: "After a pause." }, // pause > 2 s → new paragraph
      { start: 3725.2, end: 3730, text: "An hour in." },
    ];
    const out = renderMarkdown(input, YT);
    const tokens = md.parse(out, {});
    expect(tokens[0].type).toBe("heading_open");
    expect(tokens[0].tag).toBe("h1");
    expect(tokens[1].content).toBe("Sample talk");
    const paras = renderedParagraphs(out);
    expect(paras[0].links).toEqual([{ href: YT.sourceUrl, text: YT.sourceUrl }]);
    expect(paras.slice(1).map((p) => p.links)).toEqual([
      [{ href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=0s", text: "00:00" }],
      [{ href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=65s", text: "01:05" }],
      [{ href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3725s", text: "1:02:05" }],
    ]);
    expect(paras.slice(1).map((p) => p.text)).toEqual(["00:00 Intro.", "01:05 After a pause.", "1:02:05 An hour in."]);
  });

  it("uses Vimeo #t= links", () => {
    const out = renderMarkdown([{ start: 90, end: 95, text: "Hi" }], VIMEO);
    expect(out).toContain("\n[01:30](https://vimeo.com/76979871#t=90s) Hi\n");
    expect(renderedParagraphs(out)[1].links).toEqual([{ href: "https://vimeo.com/76979871#t=90s", text: "01:30" }]);
  });

  it("uses plain timestamps and a 'Transcript' title where deep links aren't supported", () => {
    const out = renderMarkdown([{ start: 5, end: 6, text: "Hallo" }], OTHER);
    expect(out).toBe(
      "# Transcript\n\nSource: [https://example.com/media/42](https://example.com/media/42)\n\n[00:05] Hallo\n",
    );
    const paras = renderedParagraphs(out);
    expect(paras[1]).toEqual({ links: [], text: "[00:05] Hallo" });
  });

  it("escapes the title and refuses non-http source links", () => {
    const out = renderMarkdown([], { ...OTHER, title: "C# *tips* <script>", sourceUrl: "javascript:alert(1)" });
    expect(out).toBe("# C\\# \\*tips\\* \\<script\\>\n\nSource: javascript:alert(1)\n");
    expect(md.render(out)).toContain("<h1>C# *tips* &lt;script&gt;</h1>");
    expect(md.render(out)).not.toContain("<a ");
  });

  it("groups messy input into ordered paragraphs without losing text", () => {
    const out = renderMarkdown(MESSY, OTHER);
    const paras = renderedParagraphs(out).slice(1);
    const stripped = paras.map((p) => p.text.replace(/^\[[0-9:]+\] /, ""));
    expect(stripped.join(" ")).toBe(
      normalizeSegments(MESSY)
        .map((s) => s.text)
        .join(" "),
    );
    expect(paras.map((p) => p.text.slice(0, 7))).toEqual(["[00:00]", "[00:10]", "[00:15]", "[00:20]"]);
  });

  it("renders a 10-hour, 36,000-segment transcript whose paragraphs are ~30–60 s and correctly linked", () => {
    const input = makeLongTranscript(36_000);
    const out = renderMarkdown(input, YT);
    const paras = renderedParagraphs(out).slice(1);
    const cues = normalizeSegments(input);
    expect(paras.length).toBeGreaterThan(500);

    let previous = -1;
    const texts: string[] = [];
    for (const p of paras) {
      expect(p.links).toHaveLength(1);
      const { href, text: clock } = p.links[0];
      const m = /^https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ&t=(\d+)s$/.exec(href);
      expect(m, href).not.toBeNull();
      const t = Number(m![1]);
      expect(clock).toMatch(t >= 3600 ? /^\d+:\d{2}:\d{2}$/ : /^\d{2}:\d{2}$/);
      expect(clockToSeconds(clock)).toBe(t);
      expect(t).toBeGreaterThan(previous);
      if (previous >= 0) expect(t - previous).toBeLessThanOrEqual(62);
      previous = t;
      expect(p.text.startsWith(clock + " ")).toBe(true);
      texts.push(p.text.slice(clock.length + 1));
    }
    expect(previous).toBeGreaterThan(10 * 3600 - 62);
    // Escaping round-trips: the rendered text equals the original transcript text.
    expect(texts.join(" ")).toBe(cues.map((c) => c.text).join(" "));
  });
});

describe("chapters", () => {
  const segments: Segment[] = [
    { start: 0, end: 4, text: "Hello and welcome." },
    { start: 4, end: 9, text: "Today: bread." },
    { start: 12, end: 15, text: "First, yeast." },
    { start: 70, end: 75, text: "Then, the oven." },
  ];
  const meta: TranscriptMeta = {
    ...SAMPLE_META,
    platform: "youtube",
    videoId: "abcdefghijk",
    chapters: [
      { start: 0, title: "Intro" },
      { start: 10, title: "Yeast & *sugar*" },
      { start: 60, title: "Oven" },
      { start: 500, title: "After the end" },
    ],
  };

  it("each chapter is a heading that opens a paragraph at its first segment; titles are escaped", () => {
    const md = renderMarkdown(segments, meta);
    const html = new MarkdownIt().render(md);
    expect(html).toContain("<h2>Intro</h2>");
    expect(html).toContain("<h2>Yeast &amp; *sugar*</h2>");
    expect(html).toContain("<h2>Oven</h2>");
    expect(html).not.toContain("After the end");
    expect(md).toMatch(
      /\n\n## Yeast \\& \\\*sugar\\\*\n\n\[00:12\]\(https:\/\/www\.youtube\.com\/watch\?v=abcdefghijk&t=12s\) First, yeast\./,
    );
  });

  it("without chapters the output is unchanged", () => {
    expect(renderMarkdown(segments, { ...meta, chapters: [] })).toBe(
      renderMarkdown(segments, { ...meta, chapters: undefined }),
    );
    expect(renderMarkdown(segments, { ...meta, chapters: [] })).not.toContain("##");
  });
});
