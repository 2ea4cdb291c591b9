import { jsonInvalid } from "@/lib/http/validation";

// A JSON request body → a value, or a 422 json_invalid in FastAPI's shape. Bounded: the bytes must
// be UTF-8, and nesting deeper than MAX_JSON_DEPTH is refused by a linear scan before JSON.parse
// builds anything, so no later step (schema, echo of `input`, JSON.stringify) can recurse without end.

export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw jsonInvalid(firstInvalidUtf8(bytes), "Invalid UTF-8 in the body");
  }
  if (text.trim() === "") return undefined;
  const tooDeep = depthExceededAt(text, MAX_JSON_DEPTH);
  if (tooDeep !== -1) throw jsonInvalid(tooDeep, `Nesting deeper than ${MAX_JSON_DEPTH} levels`);
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

/** Index of the bracket that opens level maxDepth + 1 (outside strings), or -1. */
export function depthExceededAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return -1;
}

/** Character position of the first replacement character once decoded leniently (where decoding failed). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  return Math.max(0, new TextDecoder("utf-8").decode(bytes).indexOf("\uFFFD"));
}
