import { jsonInvalid } from "@/lib/http/validation";

// A JSON request body → a value, or a 422 json_invalid in FastAPI's shape. Bounded: the bytes must
// be UTF-8, and nesting deeper than MAX_JSON_DEPTH is refused by a linear scan before JSON.parse
// builds anything, so no later step (schema, echo of `input`, JSON.stringify) can recurse without end.
// The same scan refuses an object of more than MAX_JSON_OBJECT_KEYS members: no body here needs more
// than a handful, and a 1 MiB object of ~100,000 distinct keys costs V8 a dictionary-mode object and
// makes every later walk of it (the text checks, the schema) slow, on the event loop.

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_OBJECT_KEYS = 1000;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw jsonInvalid(firstInvalidUtf8(bytes), "Invalid UTF-8 in the body");
  }
  if (text.trim() === "") return undefined;
  const shape = shapeExceeded(text, MAX_JSON_DEPTH, MAX_JSON_OBJECT_KEYS);
  if (shape?.by === "depth") throw jsonInvalid(shape.at, `Nesting deeper than ${MAX_JSON_DEPTH} levels`);
  if (shape?.by === "keys") throw jsonInvalid(shape.at, `More than ${MAX_JSON_OBJECT_KEYS} members in one object`);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : "Invalid JSON";
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    throw jsonInvalid(
      position,
      message.replace(/ in JSON at position \d+.*$/, "").replace(/ \(line \d+ column \d+\)$/, ""),
    );
  }
}

/**
 * Where the text first opens level maxDepth + 1, or gives an object its (maxKeys + 1)th member (outside
 * strings); null when neither. A separator is counted as a member of the innermost open object.
 */
export function shapeExceeded(
  text: string,
  maxDepth: number,
  maxKeys: number,
): { by: "depth" | "keys"; at: number } | null {
  // Members so far of each open level's object; -1 for an array.
  const members = new Int32Array(maxDepth + 1);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
      if (depth > 0 && members[depth] === 0) members[depth] = 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return { by: "depth", at: i };
      members[depth] = c === 0x7b ? 0 : -1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth > 0 && members[depth]! > 0) {
      if (++members[depth]! > maxKeys) return { by: "keys", at: i };
    }
  }
  return null;
}

/** Character position of the first replacement character once decoded leniently (where decoding failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  return Math.max(0, new TextDecoder("utf-8").decode(bytes).indexOf("\uFFFD"));
}
