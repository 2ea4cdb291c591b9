/**
 * A growable text buffer that renderers write code units into directly, decoded into one string at the
 * end. For tens of thousands of cues this is several times cheaper than concatenating per-cue strings
 * and joining them (V8 has to flatten every cons string, and the garbage they leave costs as much again),
 * and it lets escaping happen in the same pass as the copy.
 *
 * It holds one byte per code unit (Latin-1) until a code unit above U+00FF is written, and two from then
 * on: most transcripts are Latin-1 throughout, and for them the buffer, the decode and the resulting
 * one-byte string (which the response encodes to UTF-8 far faster than a two-byte one) are half the size.
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
 * Decodes the first `length` bytes as Latin-1 (each byte is the code unit U+0000–U+00FF). Not through
 * TextDecoder("latin1"): the Encoding Standard makes that windows-1252, which differs in 0x80–0x9F.
 */
export function decodeLatin1(bytes: Uint8Array, length: number, viaNodeBuffer = USE_NODE_BUFFER): string {
  if (viaNodeBuffer) return Buffer.from(bytes.buffer, bytes.byteOffset, length).toString("latin1");
  return decodeUtf16(Uint16Array.from(bytes.subarray(0, length)), length, false);
}

/**
 * One scratch buffer of each width is kept between renders (up to SCRATCH_MAX code units) and reused: a
 * fresh multi-megabyte ArrayBuffer per render counts as external memory and makes V8 run a full
 * mark-compact every few renders. Rendering is synchronous, so one of each suffices; a writer that
 * needs one while another writer holds it (or after a render threw without Utf16Writer.build) simply
 * allocates its own.
 */
const SCRATCH_MAX = 4 * 1024 * 1024; // a 10-hour transcript in any format fits

class Scratch<T extends Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>> {
  private buf: T | null = null;
  inUse = false;
  constructor(private readonly make: (length: number) => T) {}

  /** The scratch buffer with room for `capacity` units, or null when it is taken or too small to keep. */
  take(capacity: number): T | null {
    if (this.inUse || capacity > SCRATCH_MAX) return null;
    if (this.buf === null || this.buf.length < capacity)
      this.buf = this.make(Math.min(SCRATCH_MAX, Math.ceil(capacity * 1.25)));
    this.inUse = true;
    return this.buf;
  }

  /** Makes `buf` (already filled up to some point) the kept buffer, if it is free to. */
  adopt(buf: T): boolean {
    if (this.inUse || buf.length > SCRATCH_MAX) return false;
    this.buf = buf;
    this.inUse = true;
    return true;
  }
}

const narrowScratch = new Scratch((length) => new Uint8Array(length));
const wideScratch = new Scratch((length) => new Uint16Array(length));

export class Utf16Writer {
  /** Latin-1 bytes until a code unit above U+00FF is written (see `wide`), UTF-16 code units after. */
  buf: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>;
  pos = 0;
  wide = false;
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
    const scratch = narrowScratch.take(capacity);
    this.ownsScratch = scratch !== null;
    this.buf = scratch ?? new Uint8Array(capacity);
  }

  /** Makes room for `n` more code units. */
  reserve(n: number): void {
    const needed = this.pos + n;
    if (needed <= this.buf.length) return;
    const length = Math.max(needed, this.buf.length * 2);
    const written = this.buf.subarray(0, this.pos);
    this.release();
    if (this.wide) {
      const next = new Uint16Array(length);
      next.set(written);
      this.ownsScratch = wideScratch.adopt(next);
      this.buf = next;
    } else {
      const next = new Uint8Array(length);
      next.set(written);
      this.ownsScratch = narrowScratch.adopt(next);
      this.buf = next;
    }
  }

  /** Switches to two bytes per code unit, keeping what was written: before writing a unit above U+00FF. */
  widen(): void {
    if (this.wide) return;
    const length = this.buf.length;
    const scratch = wideScratch.take(length);
    const next = scratch ?? new Uint16Array(length);
    next.set(this.buf.subarray(0, this.pos));
    this.release();
    this.ownsScratch = scratch !== null;
    this.buf = next;
    this.wide = true;
  }

  /** Appends a string verbatim (caller has reserved room). */
  raw(s: string): void {
    let buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff && !this.wide) {
        this.pos = p;
        this.widen();
        buf = this.buf;
      }
      buf[p++] = c;
    }
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
      (this.wide ? wideScratch : narrowScratch).inUse = false;
    }
  }

  /** The written text as a string. The writer must not be used afterwards. */
  finish(): string {
    const out = this.wide
      ? decodeUtf16(this.buf as Uint16Array, this.pos)
      : decodeLatin1(this.buf as Uint8Array, this.pos);
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
  let buf = w.buf;
  let narrow = !w.wide;
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
    } else {
      if (narrow && c > 0xff) {
        w.pos = p;
        w.widen();
        buf = w.buf;
        narrow = false;
      }
      if (c >= 0xd800 && c <= 0xdfff && escaping.loneSurrogates) {
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
  }
  if (p > start && buf[p - 1] === 32) p--; // trailing whitespace
  w.pos = p;
}
