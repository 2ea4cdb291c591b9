/**
 * Elements of the XML-like caption formats (srv3 `<p>` and `<s>`, the classic `<text>`, TTML `<p>`) and the
 * HTML transcript's `<cite>`, found in one pass over the text.
 *
 * The parsers used to find them with one regex, `<p\b([^>]*?)(?:\/>|>([\s\S]*?)<\/p>)`. A regex tries every
 * start again from scratch: each `<p` without a `</p>` after it read the rest of the file before giving up,
 * so a 4 MiB file of unclosed `<p>`s (a PATCH body, a podcast's published transcript) took minutes on the
 * event loop. Here the next `>` and the next closing tag are looked up once and reused while the starts pass
 * them: the same elements, in time linear in the text.
 */

export interface Element {
  /** The start tag's attributes, between the name and `>` (or `/>`). */
  attrs: string;
  /** What lies between the start tag and the first closing tag after it; null for `<p .../>`. */
  inner: string | null;
  /** Where the element starts and ends in the text. */
  from: number;
  to: number;
}

/** The first match of `pattern` (global or sticky) at or after `from`, remembered while it stays ahead of `from`. */
function finder(text: string, pattern: RegExp) {
  let found: { index: number; end: number } | null = null;
  let searchedFrom = Infinity;
  return (from: number): { index: number; end: number } | null => {
    if (searchedFrom <= from && (found === null || found.index >= from)) return found;
    pattern.lastIndex = from;
    const m = pattern.exec(text);
    found = m ? { index: m.index, end: m.index + m[0].length } : null;
    searchedFrom = from;
    return found;
  };
}

/**
 * Each element that `<open([^>]*?)(?:\/>|>([\s\S]*?)close)` finds, in order (`open` ends with the element's
 * name, e.g. /<p\b/gi; `close` is its end tag, e.g. /<\/p>/gi; both global).
 */
export function* elements(text: string, open: RegExp, close: RegExp): Generator<Element> {
  const nextGt = finder(text, /\/?>/g);
  const nextClose = finder(text, close);
  let at = 0;
  for (;;) {
    open.lastIndex = at;
    const start = open.exec(text);
    if (!start) return;
    const afterName = start.index + start[0].length;
    const gt = nextGt(afterName);
    if (!gt) return;
    if (text[gt.end - 2] === "/" && gt.end - 2 >= afterName) {
      yield { attrs: text.slice(afterName, gt.end - 2), inner: null, from: start.index, to: gt.end };
      at = gt.end;
      continue;
    }
    const end = nextClose(gt.end);
    if (!end) {
      // Nothing closes this one, nor any later one: only self-closing elements can follow.
      at = start.index + 1;
      continue;
    }
    yield {
      attrs: text.slice(afterName, gt.end - 1),
      inner: text.slice(gt.end, end.index),
      from: start.index,
      to: end.end,
    };
    at = end.end;
  }
}

/** `text` with each `<cite>…</cite>` (as `<cite>[\s\S]*?<\/cite>` finds them) replaced by `by`, in one pass. */
export function replaceElements(text: string, open: RegExp, close: RegExp, by: string): string {
  let out = "";
  let kept = 0;
  for (const element of elements(text, open, close)) {
    if (element.inner === null) continue;
    out += text.slice(kept, element.from) + by;
    kept = element.to;
  }
  return kept === 0 ? text : out + text.slice(kept);
}
