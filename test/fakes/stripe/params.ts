/**
 * Stripe's v1 request parameters: `application/x-www-form-urlencoded` bodies (and query strings for GET and
 * DELETE) with nested keys — `a[b][c]=1`, arrays as `a[0][b]=1` or `a[]=1` — parsed into plain values, then
 * checked and coerced against a small per-endpoint spec the way Stripe does: unknown keys, wrong types,
 * missing required params and bad enum values answer 400 `invalid_request_error` with the offending `param`
 * in bracket form (e.g. `line_items[0][price]`).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A Stripe API error: becomes `{"error": {type, code, message, param, doc_url, request_log_url}}`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: "invalid_request_error" | "api_error" | "card_error" | "idempotency_error" | "rate_limit_error",
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly extra: JsonObject = {},
  ) {
    super(message);
  }
}

export const paramError = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, "invalid_request_error", message, code, param);

export const missingResource = (kind: string, id: string, param: string, status = 404) =>
  new StripeApiError(status, "invalid_request_error", `No such ${kind}: '${id}'`, "resource_missing", param);

type RawValue = string | RawValue[] | { [key: string]: RawValue };

/** Parses a form body or query string into nested objects and arrays. */
export function parseForm(text: string): { [key: string]: RawValue } {
  const root: { [key: string]: RawValue } = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(key);
    const segments = match ? [match[1], ...[...match[2].matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])] : [key];
    let node: { [key: string]: RawValue } | RawValue[] = root;
    for (let i = 0; i < segments.length; i++) {
      const last = i === segments.length - 1;
      let segment = segments[i];
      if (segment === "" && Array.isArray(node)) segment = String(node.length);
      if (segment === "") {
        // `a[]` on something that is an object so far: append at the next free index.
        segment = String(Object.keys(node).length);
      }
      const container = node as { [key: string]: RawValue };
      if (last) {
        container[segment] = value;
      } else {
        const nextIsPush = segments[i + 1] === "";
        let child = container[segment];
        if (child === undefined || typeof child === "string") {
          child = nextIsPush ? [] : {};
          container[segment] = child;
        }
        node = child as { [key: string]: RawValue };
      }
    }
  }
  return arraysFromIndexedObjects(root) as { [key: string]: RawValue };
}

/** `{"0": x, "1": y}` becomes `[x, y]` (Stripe's indexed arrays), recursively. */
function arraysFromIndexedObjects(value: RawValue): RawValue {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(arraysFromIndexedObjects);
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => arraysFromIndexedObjects(value[String(k)]));
  }
  return Object.fromEntries(keys.map((k) => [k, arraysFromIndexedObjects(value[k])]));
}

// ---------------------------------------------------------------------------------------------------------
// Specs

export type Spec =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "metadata"
  | "expand"
  | "any"
  | { enum: readonly string[] }
  | { object: Record<string, Spec>; required?: readonly string[] }
  | { array: Spec }
  | { emptyable: Spec }
  | { oneOf: readonly Spec[] }
  | { map: Spec };

export type ParamsSpec = Record<string, Spec>;

export const pagination: ParamsSpec = {
  limit: "integer",
  starting_after: "string",
  ending_before: "string",
  expand: "expand",
};
export const rangeOrInt: Spec = {
  oneOf: ["integer", { object: { gt: "integer", gte: "integer", lt: "integer", lte: "integer" } }],
};

const join = (path: string, key: string) => (path ? `${path}[${key}]` : key);
const lastKey = (path: string) => /([^[\]]+)\]?$/.exec(path)?.[1] ?? path;

function oxford(values: readonly string[]): string {
  if (values.length <= 1) return values.join("");
  if (values.length === 2) return `${values[0]} or ${values[1]}`;
  return `${values.slice(0, -1).join(", ")}, or ${values[values.length - 1]}`;
}

/** Checks and coerces one value against its spec; throws Stripe's 400 on the first problem. */
export function coerce(value: RawValue, spec: Spec, path: string): Json {
  if (typeof spec === "string") {
    switch (spec) {
      case "any":
        return value as Json;
      case "string":
        if (typeof value !== "string") throw paramError(`Invalid string: ${JSON.stringify(value)}`, path);
        return value;
      case "integer":
        if (typeof value !== "string" || !/^-?\d+$/.test(value)) {
          throw paramError(
            `Invalid integer: ${typeof value === "string" ? value : "{...}"}`,
            path,
            "parameter_invalid_integer",
          );
        }
        return Number(value);
      case "number":
        if (typeof value !== "string" || value.trim() === "" || !Number.isFinite(Number(value))) {
          throw paramError(`Invalid decimal: ${typeof value === "string" ? value : "{...}"}`, path);
        }
        return Number(value);
      case "boolean":
        if (value !== "true" && value !== "false")
          throw paramError(`Invalid boolean: ${typeof value === "string" ? value : "{...}"}`, path);
        return value === "true";
      case "metadata": {
        if (value === "") return {};
        if (typeof value !== "object" || Array.isArray(value)) throw paramError("Invalid hash", path);
        const out: JsonObject = {};
        for (const [key, v] of Object.entries(value)) {
          if (typeof v !== "string") throw paramError("Invalid string: {...}", join(path, key));
          if (key.length > 40)
            throw paramError(
              `Metadata keys can have up to 40 characters. You passed in a key with ${key.length} characters.`,
              join(path, key),
            );
          if (v.length > 500)
            throw paramError(
              `Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters. Invalid value: ${v}`,
              join(path, key),
            );
          out[key] = v;
        }
        return out;
      }
      case "expand": {
        const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : null;
        if (!list || list.some((v) => typeof v !== "string")) throw paramError("Invalid array", path);
        return list as string[];
      }
    }
  }
  if ("enum" in spec) {
    if (typeof value !== "string" || !spec.enum.includes(value)) {
      throw paramError(`Invalid ${lastKey(path)}: must be one of ${oxford(spec.enum)}`, path);
    }
    return value;
  }
  if ("emptyable" in spec) {
    if (value === "") return null;
    return coerce(value, spec.emptyable, path);
  }
  if ("oneOf" in spec) {
    let first: unknown;
    for (const option of spec.oneOf) {
      try {
        return coerce(value, option, path);
      } catch (error) {
        first ??= error;
      }
    }
    throw first;
  }
  if ("array" in spec) {
    if (!Array.isArray(value)) throw paramError("Invalid array", path);
    return value.map((item, i) => coerce(item, spec.array, join(path, String(i))));
  }
  if ("map" in spec) {
    if (typeof value !== "object" || Array.isArray(value)) throw paramError("Invalid hash", path);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerce(v, spec.map, join(path, k))]));
  }
  // object
  if (typeof value !== "object" || Array.isArray(value)) throw paramError("Invalid hash", path);
  return coerceObject(value, spec.object, path, spec.required);
}

function coerceObject(
  value: { [key: string]: RawValue },
  fields: Record<string, Spec>,
  path: string,
  required: readonly string[] = [],
): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(value)) {
    const spec = fields[key];
    if (!spec) throw paramError(`Received unknown parameter: ${join(path, key)}`, join(path, key), "parameter_unknown");
    out[key] = coerce(raw, spec, join(path, key));
  }
  for (const key of required) {
    if (out[key] === undefined)
      throw paramError(`Missing required param: ${join(path, key)}.`, join(path, key), "parameter_missing");
  }
  return out;
}

/** Top-level parameters of one request, checked against the endpoint's spec. */
export function checkParams(
  raw: { [key: string]: RawValue },
  spec: ParamsSpec,
  required: readonly string[] = [],
): JsonObject {
  return coerceObject(raw, spec, "", required);
}
