import { isPrototypeName } from "@/lib/http/client-keys";
import { unstorableReason } from "@/lib/db/storable-text";

// What SCIM refuses in a client's text before anything reads it. scim-patch walks a PATCH path, and each key of a
// PATCH value, as attribute names split at `.` (and a schema's URN at its last `:`), creating each missing step on
// whatever object the step before named: a `__proto__` or `constructor.prototype` among them walks onto
// Object.prototype. A path is read here at every character that can separate names, quoted filter values
// included: the library's splitting does not always keep a quoted value whole, and no identity provider sends these
// words there. (A list's `filter` is parsed first and only its attribute paths are read: lib/scim/filter.ts.)
// Text PostgreSQL cannot hold (NUL, an unpaired surrogate) is refused too, where it would otherwise fail the query.

const SEPARATORS = /[\s.:[\]"(),]+/;
const SHOWN = 100;

const shown = (where: string) => JSON.stringify(where.length > SHOWN ? `${where.slice(0, SHOWN)}…` : where);

/** The first name in a SCIM path, filter, attribute list or key that reaches a prototype, or null. */
export function prototypeName(text: string): string | null {
  return text.split(SEPARATORS).find(isPrototypeName) ?? null;
}

/** Why a JSON body (or a value in it) cannot be taken: a key that reaches a prototype, or text PostgreSQL cannot hold. */
export function bodyProblem(value: unknown, at = ""): string | null {
  if (typeof value === "string") {
    const reason = unstorableReason(value);
    return reason ? `${at ? shown(at) : "The body"}: ${reason.replace(/^Value error, /, "")}.` : null;
  }
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = bodyProblem(item, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const where = at ? `${at}.${key}` : key;
    const name = prototypeName(key);
    if (name) return `${shown(where)} names ${name}, which is no attribute.`;
    const reason = unstorableReason(key);
    if (reason) return `An attribute's name: ${reason.replace(/^Value error, /, "")}.`;
    const problem = bodyProblem(item, where);
    if (problem) return problem;
  }
  return null;
}
