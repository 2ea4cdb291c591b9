/**
 * TTML / DFXP (`<tt>`): `<p begin=".." end=".."|dur="..">` with `<br/>` and `<span>` inside.
 * Time expressions: clock time (`hh:mm:ss.fff`, `hh:mm:ss:frames` at the document's frame rate,
 * 30 by default) and offsets (`1.5s`, `1500ms`, `2m`, `1h`, `12f`, `9000t` at the tick rate).
 */
import { elements } from "./elements";
import { CaptionParseError, type Cue, attributes, cleanText, cueAt } from "./text";

interface Rates {
  frameRate: number;
  tickRate: number;
}

/** A TTML time expression in milliseconds, or null. */
export function parseTtmlTime(value: string | undefined, rates: Rates = { frameRate: 30, tickRate: 1 }): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  const clock = /^(\d+):(\d{2}):(\d{2})(?:\.(\d+)|:(\d+(?:\.\d+)?))?$/.exec(v);
  if (clock) {
    const [, h, m, s, frac, frames] = clock;
    const f = frac ? Number(`0.${frac}`) : frames ? Number(frames) / rates.frameRate : 0;
    return ((Number(h) * 60 + Number(m)) * 60 + Number(s) + f) * 1000;
  }
  const offset = /^(\d+(?:\.\d+)?)(h|m|s|ms|f|t)$/.exec(v);
  if (!offset) return null;
  const n = Number(offset[1]);
  switch (offset[2]) {
    case "h":
      return n * 3_600_000;
    case "m":
      return n * 60_000;
    case "s":
      return n * 1000;
    case "ms":
      return n;
    case "f":
      return (n / rates.frameRate) * 1000;
    default:
      return (n / rates.tickRate) * 1000;
  }
}

export function parseTtml(body: string): Cue[] {
  const root = /<(?:[A-Za-z_][\w.-]*:)?tt\b([^>]*)>/.exec(body);
  if (!root) throw new CaptionParseError("The caption track has no <tt> element.");
  const rootAttrs = attributes(root[1] ?? "");
  const frameRate = Number(rootAttrs["ttp:frameRate"] ?? 30) || 30;
  const tickRate = Number(rootAttrs["ttp:tickRate"] ?? 0) || frameRate;
  const rates = { frameRate, tickRate };
  const out: Cue[] = [];
  for (const p of elements(body, /<(?:[A-Za-z_][\w.-]*:)?p\b/g, /<\/(?:[A-Za-z_][\w.-]*:)?p>/g)) {
    const attrs = attributes(p.attrs);
    const start = parseTtmlTime(attrs.begin, rates);
    if (start === null) continue;
    const dur = parseTtmlTime(attrs.dur, rates);
    const end = parseTtmlTime(attrs.end, rates) ?? (dur !== null ? start + dur : start);
    out.push(cueAt(start, end, cleanText(p.inner ?? "")));
  }
  return out;
}
