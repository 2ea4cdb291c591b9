// The fuzzer behind test/server/fuzz.test.ts: requests for every operation of /openapi.json, built from the
// operation's own schemas (valid-looking values, their boundaries, and hostile ones), and the check
// that every answer is in one of the contract's shapes.

import { routedPath } from "@/lib/http/request-guard";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  params: { name: string; in: "path" | "query"; required: boolean; schema: Schema }[];
  body?: Schema;
  responses: Record<string, unknown>;
  secured: boolean;
}

export interface FuzzRequest {
  label: string;
  path: string;
  /** Raw query string without "?" (kept raw so malformed or NUL encodings reach the server as sent). */
  query: string;
  headers: Record<string, string>;
  /** A string or bytes sent as is; undefined sends no body. */
  body?: string | Buffer;
  auth: "key" | "none" | "garbage";
}

/** Small, seeded PRNG (mulberry32), so a failure can be replayed with the same seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    /** `count` distinct items of `list` in a random order (all of them when it has no more). */
    sample: <T>(list: readonly T[], count: number): T[] => {
      const copy = [...list];
      for (let i = 0; i < Math.min(count, copy.length); i++) {
        const j = i + Math.floor(next() * (copy.length - i));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, count);
    },
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

export function operations(document: {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = ((op.parameters as Operation["params"] | undefined) ?? []).map((p) => ({
        ...p,
        schema: resolve(p.schema, document),
      }));
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const body = content?.["application/json"]?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        params,
        body: body ? resolve(body, document) : undefined,
        responses: (op.responses as Record<string, unknown>) ?? {},
        secured: Array.isArray(op.security) && (op.security as unknown[]).length > 0,
      });
    }
  }
  return out;
}

/** Inlines $refs (the document's schemas are not recursive). */
function resolve(schema: unknown, document: { components?: { schemas?: Record<string, Schema> } }, depth = 0): Schema {
  if (depth > 20 || schema === null || typeof schema !== "object") return (schema ?? {}) as Schema;
  if (Array.isArray(schema)) return schema.map((s) => resolve(s, document, depth + 1)) as unknown as Schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === "string") {
    const name = ref.replace("#/components/schemas/", "");
    return resolve(document.components?.schemas?.[name] ?? {}, document, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema as Schema).map(([k, v]) => [k, resolve(v, document, depth + 1)]));
}

// Strings that have broken parsers, databases and renderers before.
export const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%00",
  "\u202eevil\u202c",
  "e\u0301\u0301\u0301",
  "😀".repeat(50),
  "\ud800",
  "\udfff\ud800",
  "' OR 1=1 --",
  '"; DROP TABLE "User"; --',
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "constructor",
  "__proto__",
  "toString",
  "javascript:alert(1)",
  "https://127.0.0.1:1/",
  "http://[::1]/x",
  "file:///etc/passwd",
  "https://www.youtube.com/watch?v=\u0000",
  "９９９",
  "-1",
  "1e309",
  "NaN",
  "null",
  "true",
  "{}",
  "x".repeat(2049),
  "ü".repeat(5000),
  "a".repeat(70_000),
];

const HOSTILE_VALUES: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e308,
  -1e308,
  2 ** 53 + 1,
  [],
  {},
  [null],
  { "": null },
  JSON.parse('{"__proto__": {"admin": true}}') as Json,
];

export function hostileString(r: Rng): string {
  return r.pick(HOSTILE_STRINGS);
}

export function hostileValue(r: Rng): Json {
  return r.chance(0.5) ? hostileString(r) : r.pick(HOSTILE_VALUES);
}

/** A value the schema accepts, mostly; `edge` pushes numbers and lengths to (and past) their bounds. */
export function generate(schema: Schema, r: Rng, edge = false, depth = 0): Json {
  if (depth > 6) return null;
  if (schema.const !== undefined) return schema.const as Json;
  if (Array.isArray(schema.enum))
    return edge && r.chance(0.3) ? `${String(r.pick(schema.enum))}x` : (r.pick(schema.enum) as Json);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants?.length) return generate(r.pick(variants), r, edge, depth + 1);
  const type = Array.isArray(schema.type) ? r.pick(schema.type as string[]) : (schema.type as string | undefined);
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return r.chance(0.5);
    case "integer":
    case "number": {
      const min =
        typeof schema.minimum === "number"
          ? schema.minimum
          : typeof schema.exclusiveMinimum === "number"
            ? schema.exclusiveMinimum + 1
            : -5;
      const max =
        typeof schema.maximum === "number"
          ? schema.maximum
          : typeof schema.exclusiveMaximum === "number"
            ? schema.exclusiveMaximum - 1
            : 1000;
      if (edge) return r.pick([min, max, min - 1, max + 1, 0, -1, Number.MAX_SAFE_INTEGER, 0.5]);
      const n = min + r.next() * Math.min(max - min, 1e6);
      return type === "integer" ? Math.round(n) : n;
    }
    case "string": {
      const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
      const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : 64;
      if (edge)
        return r.pick([
          "",
          "a".repeat(maxLength),
          "a".repeat(maxLength + 1),
          "é".repeat(Math.max(minLength, 1)),
          hostileString(r),
        ]);
      if (schema.format === "uri" || schema.format === "url") {
        return r.pick([
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          "https://example.com/a.mp3",
          "https://vimeo.com/1",
          "https://x.com/a/status/1",
          "upload://nope",
        ]);
      }
      const length = r.int(minLength, Math.min(maxLength, minLength + 24));
      const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_";
      return Array.from({ length }, () => alphabet[r.int(0, alphabet.length - 1)]).join("");
    }
    case "array": {
      const items = (schema.items as Schema | undefined) ?? {};
      const count = edge ? r.pick([0, 1, 101]) : r.int(0, 3);
      return Array.from({ length: count }, () => generate(items, r, edge, depth + 1));
    }
    case "object":
    default: {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const out: Record<string, Json> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || r.chance(0.6)) out[name] = generate(property, r, edge && r.chance(0.5), depth + 1);
      }
      if (type === undefined && Object.keys(properties).length === 0) return r.chance(0.5) ? {} : hostileValue(r);
      return out;
    }
  }
}

/** A nested array `depth` levels deep, as text (JSON.stringify would overflow on the deep ones). */
export const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Mutations of a body that fit its schema: each is one way a client can get it wrong. */
export function mutateBody(value: Json, schema: Schema, r: Rng): Json {
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const copy: Record<string, Json> = value && typeof value === "object" && !Array.isArray(value) ? { ...value } : {};
  switch (r.int(0, 4)) {
    case 0: // drop a field
      if (properties.length) delete copy[r.pick(properties)];
      return copy;
    case 1: // a field of the wrong kind
      if (properties.length) copy[r.pick(properties)] = hostileValue(r);
      return copy;
    case 2: // an unknown field
      copy[hostileString(r).slice(0, 100) || "x"] = hostileValue(r);
      return copy;
    case 3: // every field hostile
      for (const name of properties) copy[name] = hostileValue(r);
      return copy;
    default: // not an object at all
      return hostileValue(r);
  }
}

export interface Check {
  ok: boolean;
  why?: string;
}

/** Every answer must be one of the contract's shapes; 5xx only when the operation documents it. */
export function checkAnswer(op: Operation | undefined, status: number, contentType: string, text: string): Check {
  const json = (): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const isProblem = (body: unknown) =>
    !!body &&
    typeof body === "object" &&
    typeof (body as Record<string, unknown>).detail === "string" &&
    typeof (body as Record<string, unknown>).code === "string";
  if (status >= 500) {
    if (!op || !(String(status) in op.responses)) return { ok: false, why: `undocumented ${status}` };
    return isProblem(json()) ? { ok: true } : { ok: false, why: `${status} outside {detail, code}` };
  }
  if (status === 422) {
    const body = json() as { detail?: unknown } | undefined;
    const items = body?.detail;
    const valid =
      Array.isArray(items) &&
      items.length > 0 &&
      items.every(
        (item: Record<string, unknown>) =>
          typeof item.msg === "string" &&
          typeof item.type === "string" &&
          Array.isArray(item.loc) &&
          (item.loc as unknown[]).every((part) => typeof part === "string" || Number.isInteger(part)),
      );
    if (!valid) return { ok: false, why: "422 outside HTTPValidationError" };
    if (text.length > 64 * 1024) return { ok: false, why: `422 of ${text.length} characters (echo not bounded)` };
    return { ok: true };
  }
  if (status >= 400) {
    if (!contentType.includes("application/json"))
      return { ok: false, why: `${status} as ${contentType || "no content type"}` };
    // OAuth and device-flow endpoints document RFC 6749's {error, error_description} instead.
    const oauth = Object.values(op?.responses ?? {}).some(
      (r) =>
        (r as { content?: Record<string, { schema?: { $ref?: string } }> }).content?.["application/json"]?.schema
          ?.$ref === "#/components/schemas/OAuthError",
    );
    if (oauth) {
      const body = json() as Record<string, unknown> | undefined;
      return typeof body?.error === "string"
        ? { ok: true }
        : { ok: false, why: `${status} outside {error, error_description}` };
    }
    return isProblem(json()) ? { ok: true } : { ok: false, why: `${status} outside {detail, code}` };
  }
  if (contentType.includes("application/json") && text !== "" && json() === undefined)
    return { ok: false, why: `${status} with invalid JSON` };
  return { ok: true };
}

/** encodeURIComponent, except that a lone surrogate goes out as the bytes of one (which it refuses to encode). */
export function enc(value: string): string {
  return Array.from(value)
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return "%ED%A0%80";
      }
    })
    .join("");
}

/**
 * Whether `sent` (an operation's path with a hostile segment) resolves, as Next.js routes it, outside the API while
 * the operation itself is outside /v1: `/s/../feed.xml` is the page path `/feed.xml`. Under /v1 a resolved path stays
 * in the API (its unknown paths answer in the contract's shape), so nothing is excused there.
 */
export function leavesApi(template: string, sent: string): boolean {
  if (/^\/v1(\/|$)/.test(template)) return false;
  const resolved = routedPath(sent.split("?")[0]!);
  const prefix = template.slice(0, template.indexOf("{") === -1 ? undefined : template.indexOf("{"));
  return resolved !== sent.split("?")[0] && !resolved.startsWith(prefix);
}
