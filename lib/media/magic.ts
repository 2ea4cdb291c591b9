/**
 * What kind of media file this is, from its first bytes (never from its name or a declared type).
 *
 *   sniffMediaType(firstBytes) // "audio/mpeg", "video/mp4", … or null
 *
 * Pass at least the first 16 bytes; `SNIFF_BYTES` (4 KiB) also lets an MP3's ID3 tag be skipped to see
 * what follows it, and finds a Matroska DocType. A result says what the container claims to be, not
 * that it decodes: ffprobe decides that (probe.ts).
 */

/** How many leading bytes to hand to sniffMediaType for the best answer. */
export const SNIFF_BYTES = 4096;

function ascii(buf: Buffer, offset: number, text: string): boolean {
  if (buf.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (buf[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

function bytes(buf: Buffer, offset: number, expected: readonly number[]): boolean {
  if (buf.length < offset + expected.length) return false;
  return expected.every((b, i) => buf[offset + i] === b);
}

function includesAscii(buf: Buffer, text: string, within: number): boolean {
  return buf.subarray(0, within).includes(text, 0, "latin1");
}

/** An MPEG audio frame header (MP3, MP2) or an AAC ADTS header at `offset`. */
function frameSync(buf: Buffer, offset: number): "audio/mpeg" | "audio/aac" | null {
  if (buf.length < offset + 3) return null;
  const b0 = buf[offset] as number;
  const b1 = buf[offset + 1] as number;
  const b2 = buf[offset + 2] as number;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const layer = (b1 >> 1) & 0x03;
  if (layer === 0) {
    // ADTS: a 12-bit sync (0xFFF), layer 00; 0xFFF1 (MPEG-4) / 0xFFF9 (MPEG-2), CRC bit either way.
    if ((b1 & 0xf6) !== 0xf0) return null;
    const samplingIndex = (b2 >> 2) & 0x0f;
    return samplingIndex <= 12 ? "audio/aac" : null;
  }
  const version = (b1 >> 3) & 0x03; // 01 is reserved
  const bitrateIndex = b2 >> 4; // 1111 is invalid
  const sampleRateIndex = (b2 >> 2) & 0x03; // 11 is reserved
  if (version === 1 || bitrateIndex === 0x0f || sampleRateIndex === 0x03) return null;
  return "audio/mpeg";
}

function isoBmff(buf: Buffer): string | null {
  const size = buf.readUInt32BE(0);
  if (size !== 1 && size < 16) return null; // 1 = 64-bit size follows
  const brand = buf.subarray(8, 12).toString("latin1");
  if (/^(M4A |M4B |M4P |F4A |F4B )$/.test(brand)) return "audio/mp4";
  if (brand === "qt  ") return "video/quicktime";
  if (brand.startsWith("3g2")) return "video/3gpp2";
  if (brand.startsWith("3gp") || brand.startsWith("3ge") || brand.startsWith("3gg")) return "video/3gpp";
  return "video/mp4";
}

function ogg(buf: Buffer): string {
  // The first page carries the first stream's identification header.
  if (includesAscii(buf, "\x80theora", 64)) return "video/ogg";
  return "audio/ogg";
}

function ebml(buf: Buffer): string {
  // The EBML header's DocType: "webm" or "matroska".
  if (includesAscii(buf, "webm", 64)) return "video/webm";
  return "video/x-matroska";
}

/** Size of an ID3v2 tag starting at 0 (header and optional footer included), or null. */
function id3Length(buf: Buffer): number | null {
  if (!ascii(buf, 0, "ID3") || buf.length < 10) return null;
  if (buf.subarray(6, 10).some((b) => b > 0x7f)) return null; // sizes are "syncsafe": 7 bits per byte
  const size = (buf.readUInt8(6) << 21) | (buf.readUInt8(7) << 14) | (buf.readUInt8(8) << 7) | buf.readUInt8(9);
  const footer = ((buf[5] as number) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * The MIME type of a media file recognised by its magic bytes, or null. Recognises WAV (and RF64/BW64),
 * MP3 (ID3 tag or MPEG frame sync), AAC ADTS, Ogg (audio; video/ogg for Theora), FLAC, MP4/M4A/MOV/3GP
 * (ISO BMFF `ftyp`), WebM/Matroska, AIFF/AIFC, AMR/AMR-WB, CAF, ASF (WMA/WMV) and AVI.
 */
export function sniffMediaType(firstBytes: Buffer | Uint8Array): string | null {
  const buf = Buffer.isBuffer(firstBytes)
    ? firstBytes
    : Buffer.from(firstBytes.buffer, firstBytes.byteOffset, firstBytes.byteLength);
  if (buf.length < 4) return null;

  const id3 = id3Length(buf);
  if (id3 !== null) {
    // A tag in front of the audio: usually MP3, sometimes FLAC or AAC. Look behind it if we have the bytes.
    if (buf.length >= id3 + 4) {
      const after = buf.subarray(id3);
      if (ascii(after, 0, "fLaC")) return "audio/flac";
      const sync = frameSync(after, 0);
      if (sync) return sync;
    }
    return "audio/mpeg";
  }

  if (ascii(buf, 0, "RIFF") || ascii(buf, 0, "RF64") || ascii(buf, 0, "BW64")) {
    if (ascii(buf, 8, "WAVE")) return "audio/wav";
    if (ascii(buf, 8, "AVI ")) return "video/x-msvideo";
    return null;
  }
  if (ascii(buf, 0, "FORM") && (ascii(buf, 8, "AIFF") || ascii(buf, 8, "AIFC"))) return "audio/aiff";
  if (ascii(buf, 0, "OggS")) return ogg(buf);
  if (ascii(buf, 0, "fLaC")) return "audio/flac";
  if (buf.length >= 12 && ascii(buf, 4, "ftyp")) return isoBmff(buf);
  if (bytes(buf, 0, [0x1a, 0x45, 0xdf, 0xa3])) return ebml(buf);
  if (ascii(buf, 0, "#!AMR-WB\n")) return "audio/amr-wb";
  if (ascii(buf, 0, "#!AMR\n") || ascii(buf, 0, "#!AMR_MC1.0\n")) return "audio/amr";
  if (ascii(buf, 0, "caff")) return "audio/x-caf";
  if (bytes(buf, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return "video/x-ms-asf";
  return frameSync(buf, 0);
}
