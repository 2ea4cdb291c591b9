/**
 * A growable UTF-16 code-unit buffer that renderers write into directly, decoded into one string
 * at the end. For tens of thousands of cues this is several times cheaper than concatenating
 * per-cue strings and joining them (V8 has to flatten every cons string, and the garbage they
 * leave costs as much again), and it lets escaping happen in the same pass as the copy.
 */

import { isSpaceCode } from "./normalize";

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const USE_NODE_BUFFER = LITTLE_ENDIAN && typeof Buffer === "function" && typeof Buffer.from === "function";
let textDecoder: TextDecoder | null = null;

/**
 * Decodes the first `length` code units into a string: through Node's Buffer where available
 * (fastest; keeps lone surrogates), else the standard TextDecoder (edge runtimes, browsers).
 */
export function decodeUtf16(units: Uint16Array, length: number, viaNodeBuffer = USE_NODE_BUFFER): string {
  if (viaNodeBuffer) return Buffer.from(units.buffer, units.byteOffset, length * 2).toString("utf16le");
  textDecoder ??= new TextDecoder(LITTLE_ENDIAN ? "utf-16le" : "utf-16be");
  return textDecoder.decode(units.subarray(0, length));
}

/**
 * One scratch buffer is kept between renders (up to SCRATCH_MAX code units) and reused: a fresh
 * multi-megabyte ArrayBuffer per render counts as external memory and makes V8 run a full
 * mark-compact every few renders. Rendering is synchronous, so a single buffer suffices; a
 * writer created while another holds it (or after a render threw without Utf16Writer.build)
 * simply allocates its own.
 */
const SCRATCH_MAX = 4 * 1024 * 1024; // 8 MiB: a 10-hour transcript in any format fits
let scratch: Uint16Array | null = null;
let scratchInUse = false;

export class Utf16Writer {
  buf: Uint16Array;
  pos = 0;
  private ownsScratch = false;

  /** Creates a writer, lets `fill` write, and returns the string; the scratch buffer is released even if `fill` throws. */
  static build(initialCapacity: number, fill: (w: Utf16Writer) => void): string {
    const w = new Utf16Writer(initialCapacity);
    try {
      fill(w);
      return w.finish();
    } finally {
      w.release();
    }
  }

  constructor(initialCapacity: number) {
    const capacity = Math.max(64, Math.ceil(initialCapacity));
    if (!scratchInUse && capacity <= SCRATCH_MAX) {
      if (scratch === null || scratch.length < capacity) scratch = new Uint16Array(Math.min(SCRATCH_MAX, Math.ceil(capacity * 1.25)));
      this.buf = scratch;
      this.ownsScratch = true;
      scratchInUse = true;
    } else {
      this.buf = new Uint16Array(capacity);
    }
  }

  /** Makes room for `n` more code units. */
  reserve(n: number): void {
    const needed = this.pos + n;
    if (needed <= this.buf.length) return;
    const next = new Uint16Array(Math.max(needed, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.pos));
    this.release();
    if (!scratchInUse && next.length <= SCRATCH_MAX) {
      scratch = next;
      this.ownsScratch = true;
      scratchInUse = true;
    }
    this.buf = next;
  }

  /** Appends a string verbatim (caller has reserved room). */
  raw(s: string): void {
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Appends `HH:MM:SS<sep>mmm` for a non-negative integer ms (caller has reserved 12 + extra hour digits). */
  clock(ms: number, sep: number): void {
    const buf = this.buf;
    let p = this.pos;
    const h = Math.floor(ms / 3_600_000);
    // Everything below the hour fits in int32: keep the arithmetic integer (`%` on doubles is slow).
    const inHour = (ms - h * 3_600_000) | 0;
    const m = (inHour / 60_000) | 0;
    const inMinute = inHour - m * 60_000;
    const s = (inMinute / 1000) | 0;
    const f = inMinute - s * 1000;
    if (h < 100) {
      const h10 = ((h | 0) / 10) | 0;
      buf[p++] = 48 + h10;
      buf[p++] = 48 + (h | 0) - h10 * 10;
    } else {
      const hs = String(h);
      for (let i = 0; i < hs.length; i++) buf[p++] = hs.charCodeAt(i);
    }
    const m10 = (m / 10) | 0;
    const s10 = (s / 10) | 0;
    const f100 = (f / 100) | 0;
    const f10 = ((f - f100 * 100) / 10) | 0;
    buf[p++] = 58;
    buf[p++] = 48 + m10;
    buf[p++] = 48 + m - m10 * 10;
    buf[p++] = 58;
    buf[p++] = 48 + s10;
    buf[p++] = 48 + s - s10 * 10;
    buf[p++] = sep;
    buf[p++] = 48 + f100;
    buf[p++] = 48 + f10;
    buf[p++] = 48 + f - f100 * 100 - f10 * 10;
    this.pos = p;
  }

  /** Appends a non-negative integer in decimal (caller has reserved 16). */
  int(n: number): void {
    const buf = this.buf;
    let p = this.pos;
    if (n < 1e9) {
      // int32 fast path: digits written right to left, no string allocated.
      let v = n | 0;
      let digits = 1;
      for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
      p += digits;
      let q = p;
      do {
        const next = (v / 10) | 0;
        buf[--q] = 48 + v - next * 10;
        v = next;
      } while (v > 0);
    } else {
      const s = String(n);
      for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
    }
    this.pos = p;
  }

  private release(): void {
    if (this.ownsScratch) {
      this.ownsScratch = false;
      scratchInUse = false;
    }
  }

  /** The written text as a string. The writer must not be used afterwards. */
  finish(): string {
    const out = decodeUtf16(this.buf, this.pos);
    this.release();
    return out;
  }
}

/** Max characters a clock can take: 12, plus hour digits beyond two. */
export function clockWidth(maxMs: number): number {
  const hours = Math.floor(maxMs / 3_600_000);
  return hours < 100 ? 12 : 10 + String(hours).length;
}

/** Character classes for writeText's table (ASCII only). */
const COPY = 0;
const SPACE = 1;
const REPLACE = 2;
const ARROW_HEAD = 3;

/** How writeText turns one cue's text into output. Build with textEscaping(). */
export interface TextEscaping {
  /** Class of each ASCII code: COPY, SPACE (whitespace/control), REPLACE or ARROW_HEAD. */
  readonly classes: Uint8Array;
  /** Replacement strings for REPLACE codes. */
  readonly replacements: ReadonlyArray<string>;
  /** Most code units written per input code unit (for reserving room). */
  readonly expansion: number;
  /** Escape lone surrogates as `\uXXXX`, as well-formed JSON.stringify does (JSON). */
  readonly loneSurrogates: boolean;
}

/**
 * Builds a TextEscaping from ASCII replacements. `arrows` shortens every `-{2,}>` to `->` so
 * text can't look like a timing line (SRT); `loneSurrogates` escapes unpaired surrogates (JSON).
 */
export function textEscaping(
  replacements: Readonly<Record<string, string>>,
  options: { arrows?: boolean; loneSurrogates?: boolean } = {},
): TextEscaping {
  const classes = new Uint8Array(128);
  for (let c = 0; c <= 0x20; c++) classes[c] = SPACE;
  classes[0x7f] = SPACE;
  const table = new Array<string>(128).fill("");
  let expansion = 1;
  for (const [ch, replacement] of Object.entries(replacements)) {
    const c = ch.charCodeAt(0);
    // A replacement must not contain a space: writeText reads a trailing space as an open whitespace run.
    if (ch.length !== 1 || c >= 128 || classes[c] === SPACE || replacement.includes(" ")) {
      throw new Error(`cannot escape ${JSON.stringify(ch)} as ${JSON.stringify(replacement)}`);
    }
    classes[c] = REPLACE;
    table[c] = replacement;
    expansion = Math.max(expansion, replacement.length);
  }
  if (options.arrows === true) {
    if (classes[62] !== COPY) throw new Error("arrows and a '>' replacement are exclusive");
    classes[62] = ARROW_HEAD;
  }
  const loneSurrogates = options.loneSurrogates === true;
  if (loneSurrogates) expansion = Math.max(expansion, 6); // \uXXXX
  return { classes, replacements: table, expansion, loneSurrogates };
}

export const PLAIN: TextEscaping = textEscaping({});

const HEX = "0123456789abcdef";

/**
 * Appends `text` cleaned by the normalizeSegments/cleanText rules — runs of whitespace and
 * control characters collapsed to one space, leading/trailing ones dropped — and escaped per
 * `escaping`, in a single pass over the characters. Reserves its own room.
 *
 * A space is only ever written for whitespace, and no replacement contains one, so "the last
 * written unit is a space" means "a whitespace run is open" — no extra state in the hot loop.
 */
export function writeText(w: Utf16Writer, text: string, escaping: TextEscaping): void {
  const n = text.length;
  w.reserve(n * escaping.expansion);
  const buf = w.buf;
  const classes = escaping.classes;
  const start = w.pos;
  let p = start;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const k = classes[c];
      if (k === COPY) {
        buf[p++] = c;
      } else if (k === SPACE) {
        if (p > start && buf[p - 1] !== 32) buf[p++] = 32;
      } else if (k === REPLACE) {
        const r = escaping.replacements[c];
        for (let j = 0; j < r.length; j++) buf[p++] = r.charCodeAt(j);
      } else {
        // ARROW_HEAD: drop dashes so that "-->", "--->"... become "->".
        while (p - start >= 2 && buf[p - 1] === 45 && buf[p - 2] === 45) p--;
        buf[p++] = c;
      }
    } else if (c >= 0xa0 && isSpaceCode(c)) {
      if (p > start && buf[p - 1] !== 32) buf[p++] = 32;
    } else if (c >= 0xd800 && c <= 0xdfff && escaping.loneSurrogates) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        buf[p++] = c; // a well-formed pair is copied as is
        buf[p++] = next;
        i++;
      } else {
        buf[p++] = 92; // \
        buf[p++] = 117; // u
        buf[p++] = HEX.charCodeAt((c >> 12) & 15);
        buf[p++] = HEX.charCodeAt((c >> 8) & 15);
        buf[p++] = HEX.charCodeAt((c >> 4) & 15);
        buf[p++] = HEX.charCodeAt(c & 15);
      }
    } else {
      buf[p++] = c;
    }
  }
  if (p > start && buf[p - 1] === 32) p--; // trailing whitespace
  w.pos = p;
}
