// The one rule for text on its way to PostgreSQL, for every surface: text and jsonb cannot hold NUL
// (U+0000), and a string with an unpaired surrogate is not Unicode (it cannot be encoded as UTF-8).
// Input from callers (REST bodies and queries, page URLs, MCP tool arguments) holding either is refused
// with a clear answer (`unstorableReason`); text the app itself stores from elsewhere (a feed's titles, an
// upstream's error message in a job) is made storable instead (`storableText`).

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be stored as text, as a validation message; null when it can. */
export function unstorableReason(value: string): string | null {
  if (value.includes("\u0000")) return "Value error, String should not contain NUL (\\u0000) characters";
  if (UNPAIRED_SURROGATE.test(value))
    return "Value error, String should be valid Unicode (it holds an unpaired surrogate)";
  return null;
}

/** `value` with each NUL and each unpaired surrogate replaced by U+FFFD (the replacement character). */
export function storableText(value: string): string {
  return value.includes("\u0000") || UNPAIRED_SURROGATE.test(value)
    ? value.replaceAll("\u0000", "\uFFFD").toWellFormed()
    : value;
}
