import { NextResponse } from "next/server";
import type { core, ZodType } from "zod";
import { unstorableReason } from "@/lib/db/storable-text";
import { clientKeyed, isPrototypeName } from "@/lib/http/client-keys";

// Zod issues rendered exactly as FastAPI (pydantic v2) renders validation errors, because the
// contract's HTTPValidationError is that shape: {"detail": [{type, loc, msg, input, ctx?}]}.

export type Loc = (string | number)[];

export interface ValidationErrorItem {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class RequestValidationError extends Error {
  constructor(readonly items: ValidationErrorItem[]) {
    super("Request validation failed");
    this.name = "RequestValidationError";
  }
}

/**
 * The 422 answer. FastAPI echoes each item's `input`; here the echo is bounded (at most MAX_ECHO_ITEMS
 * items; `input` and `loc` clipped by clipEcho under one budget for the whole answer), so a 1 MiB body
 * never comes back larger than a few dozen KiB.
 */
export function validationResponse(items: ValidationErrorItem[]): NextResponse {
  const budget = { left: ECHO.budget };
  const detail = items.slice(0, MAX_ECHO_ITEMS).map((item) => ({
    ...item,
    loc: item.loc.map((part) => (typeof part === "string" ? clipString(part, ECHO.maxKey) : part)),
    input: clipEcho(item.input, budget),
  }));
  return NextResponse.json({ detail }, { status: 422 });
}

export const MAX_ECHO_ITEMS = 50;
/** Strings up to 4096 characters come back whole (the contract's 2048-character fields included). */
const ECHO = { maxString: 4096, maxKey: 256, maxEntries: 50, maxDepth: 8, budget: 32 * 1024 };
const ELLIPSIS = "…";

function clipString(value: string, max: number): string {
  if (value.length <= max) return value;
  // Never cut a surrogate pair in half.
  const end = /[\uD800-\uDBFF]/.test(value[max - 1] ?? "") ? max - 1 : max;
  return value.slice(0, Math.max(0, end)) + ELLIPSIS;
}

/**
 * A copy of `value` small enough to echo: strings cut at 4096 characters, at most 50 entries per array
 * or object, 8 levels deep, and no more than the shared budget (32 KiB per answer) in all. Whatever is
 * cut is marked "…".
 */
export function clipEcho(value: unknown, budget = { left: ECHO.budget }): unknown {
  const clip = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      const out = clipString(v, Math.min(ECHO.maxString, Math.max(0, budget.left)));
      budget.left -= out.length + 2;
      return out;
    }
    if (v === null || typeof v !== "object") {
      budget.left -= 8;
      return v;
    }
    if (depth >= ECHO.maxDepth || budget.left <= 0) return ELLIPSIS;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const entry of v) {
        if (out.length >= ECHO.maxEntries || budget.left <= 0) {
          out.push(ELLIPSIS);
          break;
        }
        out.push(clip(entry, depth + 1));
      }
      return out;
    }
    const out = clientKeyed<unknown>();
    let count = 0;
    for (const [key, entry] of Object.entries(v)) {
      if (count >= ECHO.maxEntries || budget.left <= 0) {
        out[ELLIPSIS] = ELLIPSIS;
        break;
      }
      const clippedKey = clipString(key, ECHO.maxKey);
      budget.left -= clippedKey.length + 4;
      out[clippedKey] = clip(entry, depth + 1);
      count++;
    }
    return out;
  };
  return clip(value, 0);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const quoteList = (values: readonly unknown[]) => {
  const quoted = values.map((v) => (typeof v === "string" ? `'${v}'` : String(v)));
  return quoted.length <= 1 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
};

const typeNames: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  number: ["int_type", "Input should be a valid integer"],
  int: ["int_type", "Input should be a valid integer"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["model_attributes_type", "Input should be a valid dictionary or object to extract fields from"],
  record: ["dict_type", "Input should be a valid dictionary"],
};

function mapIssue(issue: core.$ZodIssue, locPrefix: Loc, raw: unknown, input: unknown): ValidationErrorItem {
  const loc: Loc = [...locPrefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  switch (issue.code) {
    case "invalid_type": {
      if (input === undefined) {
        // FastAPI reports the enclosing object as the input of a missing body field; null for query/path.
        return {
          type: "missing",
          loc,
          msg: "Field required",
          input: locPrefix[0] === "body" ? (parentOf(raw, issue.path) ?? null) : null,
        };
      }
      if ((issue.expected === "number" || issue.expected === "int") && typeof input === "string") {
        return {
          type: "int_parsing",
          loc,
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input,
        };
      }
      if (issue.expected === "int" && typeof input === "number") {
        return {
          type: "int_from_float",
          loc,
          msg: "Input should be a valid integer, got a number with a fractional part",
          input,
        };
      }
      if (issue.expected === "boolean" && typeof input === "string") {
        return { type: "bool_parsing", loc, msg: "Input should be a valid boolean, unable to interpret input", input };
      }
      const [type, msg] = typeNames[issue.expected] ?? ["type_error", `Input should be a valid ${issue.expected}`];
      return { type, loc, msg, input };
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        return {
          type: "string_too_short",
          loc,
          msg: `String should have at least ${plural(min, "character")}`,
          input,
          ctx: { min_length: min },
        };
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return {
          type: "too_short",
          loc,
          msg: `List should have at least ${plural(min, "item")} after validation, not ${actual}`,
          input,
          ctx: { field_type: "List", min_length: min, actual_length: actual },
        };
      }
      return issue.inclusive
        ? {
            type: "greater_than_equal",
            loc,
            msg: `Input should be greater than or equal to ${min}`,
            input,
            ctx: { ge: min },
          }
        : { type: "greater_than", loc, msg: `Input should be greater than ${min}`, input, ctx: { gt: min } };
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") {
        return {
          type: "string_too_long",
          loc,
          msg: `String should have at most ${plural(max, "character")}`,
          input,
          ctx: { max_length: max },
        };
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return {
          type: "too_long",
          loc,
          msg: `List should have at most ${plural(max, "item")} after validation, not ${actual}`,
          input,
          ctx: { field_type: "List", max_length: max, actual_length: actual },
        };
      }
      return issue.inclusive
        ? { type: "less_than_equal", loc, msg: `Input should be less than or equal to ${max}`, input, ctx: { le: max } }
        : { type: "less_than", loc, msg: `Input should be less than ${max}`, input, ctx: { lt: max } };
    }
    case "invalid_value": {
      const expected = quoteList(issue.values);
      return issue.values.length === 1
        ? { type: "literal_error", loc, msg: `Input should be ${expected}`, input, ctx: { expected } }
        : { type: "enum", loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case "invalid_format": {
      if (issue.format === "url") {
        return { type: "url_parsing", loc, msg: "Input should be a valid URL", input };
      }
      if (issue.format === "regex" && "pattern" in issue && issue.pattern) {
        const pattern = String(issue.pattern).replace(/^\/(.*)\/[a-z]*$/, "$1");
        return {
          type: "string_pattern_mismatch",
          loc,
          msg: `String should match pattern '${pattern}'`,
          input,
          ctx: { pattern },
        };
      }
      return { type: "value_error", loc, msg: `Value error, ${issue.message}`, input, ctx: { error: {} } };
    }
    default:
      return { type: "value_error", loc, msg: `Value error, ${issue.message}`, input, ctx: { error: {} } };
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function parentOf(root: unknown, path: readonly PropertyKey[]): unknown {
  return valueAt(root, path.slice(0, -1));
}

/**
 * Parse `raw` with `schema`; on failure throw RequestValidationError in FastAPI's shape.
 * `input` in each item is the value as the client sent it (the query string, not the coerced number).
 */
export function parseInput<S extends ZodType>(
  schema: S,
  raw: unknown,
  where: "body" | "query" | "path",
): core.output<S> {
  const unsafe = unsafeStrings(raw, [where]);
  if (unsafe.length > 0) throw new RequestValidationError(unsafe);
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const items = result.error.issues.map((issue) => mapIssue(issue, [where], raw, valueAt(raw, issue.path)));
  throw new RequestValidationError(items);
}

// NUL cannot be stored in PostgreSQL text or jsonb, and an unpaired surrogate is not Unicode: strings
// holding either are refused for every endpoint here, before any schema or handler sees them (the rule:
// lib/db/storable-text.ts). So is a key that names a prototype (`__proto__`, `constructor`, `prototype`:
// lib/http/client-keys.ts), which no field here is called. MCP tool arguments go through `refuseUnstorable` too.
const unsafeStringReason = unstorableReason;

function unsafeKeyReason(key: string): string | null {
  return (
    unstorableReason(key) ??
    (isPrototypeName(key) ? `Value error, ${key} is not a field name here: it names an object's prototype` : null)
  );
}

/** Throws a RequestValidationError naming every string in `raw` (values and keys) that cannot be stored, and every key naming a prototype. */
export function refuseUnstorable(raw: unknown, where: string): void {
  const unsafe = unsafeStrings(raw, [where]);
  if (unsafe.length > 0) throw new RequestValidationError(unsafe);
}

/** Every string (values and keys) in `raw` that cannot be stored, and every key naming a prototype, walked without recursion. */
function unsafeStrings(raw: unknown, prefix: Loc): ValidationErrorItem[] {
  type Node = { value: unknown; key?: string | number; parent?: Node };
  const locOf = (node: Node): Loc => {
    const keys: Loc = [];
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
    return [...prefix, ...keys];
  };
  const items: ValidationErrorItem[] = [];
  const stack: Node[] = [{ value: raw }];
  while (stack.length > 0 && items.length < MAX_ECHO_ITEMS) {
    const node = stack.pop()!;
    const { value } = node;
    const keyReason = typeof node.key === "string" ? unsafeKeyReason(node.key) : null;
    if (keyReason) {
      items.push({ type: "value_error", loc: locOf(node), msg: keyReason, input: node.key, ctx: { error: {} } });
    } else if (typeof value === "string") {
      const reason = unsafeStringReason(value);
      if (reason) items.push({ type: "value_error", loc: locOf(node), msg: reason, input: value, ctx: { error: {} } });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: node });
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i][1], key: entries[i][0], parent: node });
    }
  }
  return items;
}

/** Malformed JSON body: FastAPI reports the byte position of the first error. */
export function jsonInvalid(position: number, reason: string): RequestValidationError {
  return new RequestValidationError([
    { type: "json_invalid", loc: ["body", position], msg: "JSON decode error", input: {}, ctx: { error: reason } },
  ]);
}
