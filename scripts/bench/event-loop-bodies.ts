// The hostile bodies of the event-loop suite (event-loop.ts): for an endpoint's body schema, every shape a
// client can fill its size bound with. Each body is built once, before anything is measured.
import { z, type ZodType } from "zod";

export interface HostileBody {
  /** What it is, for the table: "url: 1 MiB string". */
  name: string;
  text: string;
  contentType: string;
}

const KiB = 1024;
export const MiB = 1024 * KiB;

/** `unit` repeated, separated by `separator`, as many times as fit in `bytes` (ASCII units). */
function repeat(unit: string, separator: string, bytes: number): string {
  const count = Math.max(1, Math.floor((bytes + separator.length) / (unit.length + separator.length)));
  return Array.from({ length: count }, () => unit).join(separator);
}

const size = (bytes: number) => (bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${Math.round(bytes / KiB)} KiB`);

/** The JSON-schema properties of a body schema: field name → whether it takes an array. */
export function bodyFields(schema: ZodType): Record<string, "array" | "other"> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string; anyOf?: { type?: string }[] }>;
  };
  const fields: Record<string, "array" | "other"> = {};
  for (const [name, prop] of Object.entries(json.properties ?? {})) {
    const types = [prop.type, ...(prop.anyOf ?? []).map((p) => p.type)];
    fields[name] = types.includes("array") ? "array" : "other";
  }
  return fields;
}

/**
 * JSON bodies of `limit` bytes: a body of junk keys, and for each field a string, a wide array of numbers,
 * of short strings, of objects, of unpaired surrogates (each refused), a wide object, and arrays nested
 * to the depth bound, each filling the limit.
 */
export function jsonBodies(fields: Record<string, "array" | "other">, limit: number): HostileBody[] {
  const json = "application/json";
  const room = limit - 64;
  const bodies: HostileBody[] = [{ name: `${size(limit)} of junk keys`, text: junkKeys(room), contentType: json }];
  const deep = `${"[".repeat(62)}${"]".repeat(62)}`;
  for (const field of Object.keys(fields)) {
    const at = (inner: string) => `{"${field}":${inner}}`;
    bodies.push(
      { name: `${field}: ${size(limit)} string`, text: at(`"${"a".repeat(room)}"`), contentType: json },
      { name: `${field}: ${size(limit)} array of numbers`, text: at(`[${repeat("1", ",", room)}]`), contentType: json },
      {
        name: `${field}: ${size(limit)} array of strings`,
        text: at(`[${repeat('"x"', ",", room)}]`),
        contentType: json,
      },
      {
        name: `${field}: ${size(limit)} array of objects`,
        text: at(`[${repeat("{}", ",", room)}]`),
        contentType: json,
      },
      {
        name: `${field}: ${size(limit)} array of unpaired surrogates`,
        text: at(`[${repeat('"\\ud800"', ",", room)}]`),
        contentType: json,
      },
      {
        name: `${field}: ${size(limit)} arrays nested 63 deep`,
        text: at(`[${repeat(deep, ",", room)}]`),
        contentType: json,
      },
    );
  }
  return bodies;
}

/** `{"k0":0,"k1":0,...}` of about `bytes` bytes (distinct keys: a repeated one collapses to one). */
function junkKeys(bytes: number): string {
  const entries: string[] = [];
  for (let used = 2; used < bytes;) {
    const entry = `"k${entries.length}":0`;
    entries.push(entry);
    used += entry.length + 1;
  }
  return `{${entries.join(",")}}`;
}

/** Form-encoded bodies of `limit` bytes: one long value per field, a field repeated, and junk parameters. */
export function formBodies(fields: Record<string, "array" | "other">, limit: number): HostileBody[] {
  const form = "application/x-www-form-urlencoded";
  const room = limit - 64;
  const bodies: HostileBody[] = [
    { name: `form: ${size(limit)} of junk parameters`, text: repeat("k=", "&", room), contentType: form },
  ];
  for (const field of Object.keys(fields)) {
    bodies.push(
      { name: `form ${field}: ${size(limit)} value`, text: `${field}=${"a".repeat(room)}`, contentType: form },
      { name: `form ${field}: repeated to ${size(limit)}`, text: repeat(`${field}=x`, "&", room), contentType: form },
      {
        name: `form ${field}: ${size(limit)} of %-escapes`,
        text: `${field}=${repeat("%E2%82%AC", "", room)}`,
        contentType: form,
      },
    );
  }
  return bodies;
}

/** Query strings: each string parameter at its bound in the worst characters for it (CJK, escapes, spaces). */
export function queryStrings(schema: ZodType): { name: string; query: string }[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string; maxLength?: number; anyOf?: { type?: string; maxLength?: number }[] }>;
  };
  const out: { name: string; query: string }[] = [];
  for (const [name, prop] of Object.entries(json.properties ?? {})) {
    const max = prop.maxLength ?? prop.anyOf?.find((p) => p.maxLength)?.maxLength;
    if (!max) continue;
    const fills: Record<string, string> = {
      latin: "ab ".repeat(max).slice(0, max),
      CJK: "漢字仮名한국".repeat(max).slice(0, max),
      quotes: `"a" -b `.repeat(max).slice(0, max),
      url: `https://www.youtube.com/watch?v=${"a".repeat(max)}`.slice(0, max),
    };
    for (const [kind, value] of Object.entries(fills))
      out.push({ name: `${name}: ${max} characters, ${kind}`, query: `${name}=${encodeURIComponent(value)}` });
  }
  return out;
}
