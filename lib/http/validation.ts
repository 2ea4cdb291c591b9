import { NextResponse } from "next/server";
import type { core, ZodType } from "zod";

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

export function validationResponse(items: ValidationErrorItem[]): NextResponse {
  return NextResponse.json({ detail: items }, { status: 422 });
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
        return { type: "missing", loc, msg: "Field required", input: locPrefix[0] === "body" ? parentOf(raw, issue.path) ?? null : null };
      }
      if ((issue.expected === "number" || issue.expected === "int") && typeof input === "string") {
        return { type: "int_parsing", loc, msg: "Input should be a valid integer, unable to parse string as an integer", input };
      }
      if (issue.expected === "int" && typeof input === "number") {
        return { type: "int_from_float", loc, msg: "Input should be a valid integer, got a number with a fractional part", input };
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
        return { type: "string_too_short", loc, msg: `String should have at least ${plural(min, "character")}`, input, ctx: { min_length: min } };
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return { type: "too_short", loc, msg: `List should have at least ${plural(min, "item")} after validation, not ${actual}`, input, ctx: { field_type: "List", min_length: min, actual_length: actual } };
      }
      return issue.inclusive
        ? { type: "greater_than_equal", loc, msg: `Input should be greater than or equal to ${min}`, input, ctx: { ge: min } }
        : { type: "greater_than", loc, msg: `Input should be greater than ${min}`, input, ctx: { gt: min } };
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") {
        return { type: "string_too_long", loc, msg: `String should have at most ${plural(max, "character")}`, input, ctx: { max_length: max } };
      }
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return { type: "too_long", loc, msg: `List should have at most ${plural(max, "item")} after validation, not ${actual}`, input, ctx: { field_type: "List", max_length: max, actual_length: actual } };
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
        return { type: "string_pattern_mismatch", loc, msg: `String should match pattern '${pattern}'`, input, ctx: { pattern } };
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
export function parseInput<S extends ZodType>(schema: S, raw: unknown, where: "body" | "query" | "path"): core.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const items = result.error.issues.map((issue) => mapIssue(issue, [where], raw, valueAt(raw, issue.path)));
  throw new RequestValidationError(items);
}

/** Malformed JSON body: FastAPI reports the byte position of the first error. */
export function jsonInvalid(position: number, reason: string): RequestValidationError {
  return new RequestValidationError([
    { type: "json_invalid", loc: ["body", position], msg: "JSON decode error", input: {}, ctx: { error: reason } },
  ]);
}
