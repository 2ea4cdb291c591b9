// A feed's bytes → its text, in the encoding XML's rules give it (RFC 7303 §3): a byte order mark first, then
// the charset of the Content-Type, then the XML declaration's `encoding`, else UTF-8. Labels are WHATWG encoding
// labels, read as browsers read them (ISO-8859-1 and US-ASCII as windows-1252, their superset). An unknown
// label is passed over, and so is one the bytes are not valid in: servers often send `charset=utf-8` whatever
// they serve, so the declaration, UTF-8 and finally windows-1252 (which reads any byte) come next.

const BOMS: readonly [bytes: readonly number[], encoding: string][] = [
  [[0xef, 0xbb, 0xbf], "utf-8"],
  [[0xff, 0xfe], "utf-16le"],
  [[0xfe, 0xff], "utf-16be"],
];

const CHARSET_PARAM = /;\s*charset\s*=\s*["']?([^"';\s]+)/i;
const XML_DECLARATION = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/;
/** The declaration is read in the bytes' ASCII range; a declaration readable that way cannot be UTF-16 (XML 1.0 §4.3.3). */
const DECLARATION_PEEK_BYTES = 1024;

function bomEncoding(bytes: Uint8Array): string | null {
  for (const [mark, encoding] of BOMS) if (mark.every((b, i) => bytes[i] === b)) return encoding;
  return null;
}

function declaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, DECLARATION_PEEK_BYTES)).toString("latin1");
  const label = XML_DECLARATION.exec(head)?.[1];
  return label && !/^utf-?(16|32)/i.test(label) ? label : null;
}

function decodeAs(label: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return null; // RangeError: no such encoding; TypeError: bytes not valid in it
  }
}

export function decodeFeed(bytes: Uint8Array, contentType: string | null): string {
  const candidates = [
    bomEncoding(bytes),
    CHARSET_PARAM.exec(contentType ?? "")?.[1] ?? null,
    declaredEncoding(bytes),
    "utf-8",
  ];
  for (const label of candidates) {
    const text = label ? decodeAs(label, bytes) : null;
    if (text !== null) return text;
  }
  return new TextDecoder("windows-1252").decode(bytes);
}
