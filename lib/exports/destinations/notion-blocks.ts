// A note as Notion blocks: the body the Markdown note renderer writes (lib/exports/note.ts) is a small, known
// subset of Markdown (`#`/`##`/`###` headings, paragraphs, `[text](url)` links, `**bold**`, backslash escapes), so it
// is read here line by line rather than by a general Markdown parser. Notion's size limits (its API reference,
// "Request limits") are kept: at most 2,000 characters in one rich-text object and 100 of them in one block.

export interface RichText {
  type: "text";
  text: { content: string; link: { url: string } | null };
  annotations?: { bold: true };
}

export type NotionBlock =
  | { object: "block"; type: "heading_1"; heading_1: { rich_text: RichText[] } }
  | { object: "block"; type: "heading_2"; heading_2: { rich_text: RichText[] } }
  | { object: "block"; type: "heading_3"; heading_3: { rich_text: RichText[] } }
  | { object: "block"; type: "paragraph"; paragraph: { rich_text: RichText[] } };

const MAX_TEXT = 2000;
const MAX_RICH_TEXTS = 100;
const MAX_URL = 2000;

/** The note's title and its body as blocks (the front matter left out: the page's properties hold the title). */
export function noteBlocks(note: string): { title: string; blocks: NotionBlock[] } {
  const body = note.replace(/^---\n[\s\S]*?\n---\n/, "");
  const blocks: NotionBlock[] = [];
  let title = "";
  for (const paragraph of body.split(/\n{2,}/)) {
    const text = paragraph.trim();
    if (text === "") continue;
    const heading = /^(#{1,3}) (.*)$/.exec(text);
    if (heading) {
      const level = heading[1]!.length as 1 | 2 | 3;
      const rich = inline(heading[2]!);
      if (level === 1 && title === "") {
        title = rich.map((r) => r.text.content).join("");
        continue;
      }
      blocks.push(headingBlock(level, rich));
      continue;
    }
    for (const rich of chunks(inline(text.replace(/\n/g, " "))))
      blocks.push({ object: "block", type: "paragraph", paragraph: { rich_text: rich } });
  }
  return { title, blocks };
}

function headingBlock(level: 1 | 2 | 3, rich: RichText[]): NotionBlock {
  const rich_text = rich.slice(0, MAX_RICH_TEXTS);
  if (level === 1) return { object: "block", type: "heading_1", heading_1: { rich_text } };
  if (level === 2) return { object: "block", type: "heading_2", heading_2: { rich_text } };
  return { object: "block", type: "heading_3", heading_3: { rich_text } };
}

/** A paragraph's rich text in blocks of at most MAX_RICH_TEXTS objects. */
function chunks(rich: RichText[]): RichText[][] {
  const out: RichText[][] = [];
  for (let i = 0; i < rich.length; i += MAX_RICH_TEXTS) out.push(rich.slice(i, i + MAX_RICH_TEXTS));
  return out;
}

/** One line of the renderer's Markdown as rich text: links, bold, escapes; each text at most MAX_TEXT long. */
export function inline(markdown: string): RichText[] {
  const out: RichText[] = [];
  const pattern = /\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)|\*\*((?:\\.|[^*\\])+)\*\*/g;
  let at = 0;
  for (const match of markdown.matchAll(pattern)) {
    if (match.index > at) push(out, unescape(markdown.slice(at, match.index)), null, false);
    if (match[1] !== undefined) push(out, unescape(match[1]), match[2]!, false);
    else push(out, unescape(match[3]!), null, true);
    at = match.index + match[0].length;
  }
  if (at < markdown.length) push(out, unescape(markdown.slice(at)), null, false);
  return out;
}

function push(out: RichText[], content: string, url: string | null, bold: boolean) {
  const link = url !== null && url.length <= MAX_URL && /^https?:\/\//.test(url) ? { url } : null;
  for (let i = 0; i < content.length; i += MAX_TEXT) {
    const piece: RichText = { type: "text", text: { content: content.slice(i, i + MAX_TEXT), link } };
    if (bold) piece.annotations = { bold: true };
    out.push(piece);
  }
}

function unescape(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}
