// What a feed may contain before the XML parser sees it: elements, attributes per element, nesting depth and
// the length of one text, CDATA section or attribute value. One linear pass over the text with no allocation
// per token, so a hostile feed (a million attributes on one element, a million elements, a 10 MB attribute)
// is refused in milliseconds instead of being built into objects. Real podcast feeds stay far below every
// bound (the largest recorded one, 730 episodes, has about 12,000 elements).

export const FEED_BOUNDS = {
  /** Elements in the whole document (a 10,000-episode feed with 20 elements each uses 200,000). */
  maxElements: 500_000,
  /** Attributes on one element. */
  maxAttributes: 64,
  /** Nesting depth. */
  maxDepth: 48,
  /** Characters in one text node, CDATA section or attribute value (show notes with inline images fit). */
  maxTextLength: 1024 * 1024,
};

export type FeedBounds = typeof FEED_BOUNDS;

/** Null when the text is within the bounds, else a sentence saying which one it passes. */
export function feedBoundsProblem(text: string, bounds: FeedBounds = FEED_BOUNDS): string | null {
  const n = text.length;
  let elements = 0;
  let depth = 0;
  let i = 0;
  const tooLong = (length: number) => length > bounds.maxTextLength;
  const longText = `The feed has a text longer than ${bounds.maxTextLength} characters.`;
  while (i < n) {
    const open = text.indexOf("<", i);
    const textEnd = open < 0 ? n : open;
    if (tooLong(textEnd - i)) return longText;
    if (open < 0) break;
    if (text.startsWith("<!--", open)) {
      const end = text.indexOf("-->", open + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (text.startsWith("<![CDATA[", open)) {
      const end = text.indexOf("]]>", open + 9);
      if (tooLong((end < 0 ? n : end) - open - 9)) return longText;
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (text.startsWith("<!", open) || text.startsWith("<?", open)) {
      // A declaration (DOCTYPE, with an internal subset in brackets) or a processing instruction.
      let j = open + 2;
      let brackets = 0;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === 0x5b /* [ */) brackets++;
        else if (c === 0x5d /* ] */) brackets--;
        else if (c === 0x3e /* > */ && brackets <= 0) break;
        j++;
      }
      i = j + 1;
      continue;
    }
    const closing = text.charCodeAt(open + 1) === 0x2f; /* / */
    // Through the tag to its `>`, counting quoted values (attributes) and measuring each.
    let j = open + 1;
    let attributes = 0;
    let quote = 0;
    let valueStart = 0;
    let selfClosing = false;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) {
          quote = 0;
          if (tooLong(j - valueStart)) return longText;
        }
      } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
        quote = c;
        valueStart = j + 1;
        if (++attributes > bounds.maxAttributes)
          return `An element of the feed has more than ${bounds.maxAttributes} attributes.`;
      } else if (c === 0x3e /* > */) {
        selfClosing = text.charCodeAt(j - 1) === 0x2f;
        break;
      }
      j++;
    }
    if (quote !== 0 && tooLong(n - valueStart)) return longText;
    i = j + 1;
    if (closing) {
      depth--;
      continue;
    }
    if (++elements > bounds.maxElements) return `The feed has more than ${bounds.maxElements} elements.`;
    if (!selfClosing && ++depth > bounds.maxDepth) return `The feed nests elements more than ${bounds.maxDepth} deep.`;
  }
  return null;
}
