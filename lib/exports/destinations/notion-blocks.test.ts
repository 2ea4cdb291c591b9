import { describe, expect, it } from "vitest";
import { renderNote } from "../note";
import { inline, noteBlocks } from "./notion-blocks";

describe("a note as Notion blocks", () => {
  const note = renderNote(
    {
      id: "t1",
      platform: "youtube",
      videoId: "abc",
      lang: "en",
      title: "A *talk* [x]",
      sourceUrl: "https://www.youtube.com/watch?v=abc",
      durationSeconds: 100,
      segments: [
        { start: 0, end: 5, text: "Hello *there* [world]." },
        { start: 5, end: 9, text: "Second.", speaker: "Ann" },
      ],
      channel: "TED",
      publishedAt: "20130509",
      chapters: [{ start: 0, title: "Intro" }],
      transcribedAt: new Date(0),
    },
    "https://v.example",
  );

  it("takes the title, and each chapter and paragraph with its timestamp linked to the moment", () => {
    const { title, blocks } = noteBlocks(note);
    expect(title).toBe("A *talk* [x]");
    expect(blocks.map((b) => b.type)).toEqual(["paragraph", "heading_2", "paragraph", "paragraph"]);
    const first = blocks[2] as {
      paragraph: { rich_text: { text: { content: string; link: { url: string } | null } }[] };
    };
    expect(first.paragraph.rich_text[0]!.text).toEqual({
      content: "00:00",
      link: { url: "https://www.youtube.com/watch?v=abc&t=0s" },
    });
    expect(first.paragraph.rich_text.map((r) => r.text.content).join("")).toBe("00:00 Hello *there* [world].");
    const second = blocks[3] as { paragraph: { rich_text: { text: { content: string }; annotations?: object }[] } };
    expect(second.paragraph.rich_text[2]).toMatchObject({ text: { content: "Ann:" }, annotations: { bold: true } });
  });

  it("keeps Notion's size limits: 2,000 characters a text, 100 texts a block", () => {
    const long = inline("x".repeat(4500));
    expect(long.map((r) => r.text.content.length)).toEqual([2000, 2000, 500]);
    const many = Array.from({ length: 150 }, (_, i) => `[${i}](https://x.test/${i})`).join(" ");
    const { blocks } = noteBlocks(`# T\n\n${many}\n`);
    expect(blocks.length).toBe(3);
    for (const block of blocks)
      expect((block as { paragraph: { rich_text: unknown[] } }).paragraph.rich_text.length).toBeLessThanOrEqual(100);
  });
});
