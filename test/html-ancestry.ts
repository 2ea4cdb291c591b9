// Where a piece of text sits in a server's HTML, read without a browser: the elements open around its first
// occurrence in the body's text (not in <head>, nor inside <script>, <style> or a comment), each with its attributes. A
// small tokenizer, enough for the well-formed HTML React writes; the server suite has no DOM.

export interface OpenElement {
  tag: string;
  attributes: string;
}

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const RAW_TEXT = new Set(["script", "style"]);
const TOKEN = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** The elements open around the body's first text node holding `needle` (from <body> on); null when none holds it. */
export function ancestorsOfText(html: string, needle: string): OpenElement[] | null {
  const open: OpenElement[] = [];
  // From the body: the head's <title> and meta tags repeat the page's text.
  let at = Math.max(0, html.search(/<body[\s>]/i));
  TOKEN.lastIndex = at;
  for (let match = TOKEN.exec(html); ; match = TOKEN.exec(html)) {
    const text = html.slice(at, match ? match.index : html.length);
    if (text.includes(needle)) return [...open];
    if (!match) return null;
    at = TOKEN.lastIndex;
    const [whole, closing, name, attributes] = match;
    if (whole.startsWith("<!--")) continue;
    const tag = name.toLowerCase();
    if (closing) {
      const index = open.map((element) => element.tag).lastIndexOf(tag);
      if (index >= 0) open.length = index;
    } else if (RAW_TEXT.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, at);
      at = end < 0 ? html.length : end;
      TOKEN.lastIndex = at;
    } else if (!VOID.has(tag) && !attributes.trimEnd().endsWith("/")) {
      open.push({ tag, attributes });
    }
  }
}

/** Whether an element hides what it holds from a reader without JavaScript. */
export function hides(element: OpenElement): boolean {
  return element.tag === "template" || /(^|\s)hidden(\s|=|$)/.test(element.attributes);
}
