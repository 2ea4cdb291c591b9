import { createHash } from "node:crypto";

// A note's file name must be one every system takes and the same on every export, so that a re-export updates the
// note a vault already holds instead of adding a second one. It is the title made safe and a short digest of the
// transcript's id: `Why ice floats (k3x7q2m7ta).md`. The digest keeps two transcripts of one title (two languages,
// a re-upload) apart and does not change when the title does not.

/**
 * What Windows, macOS or Linux refuse or misread in a name (controls, `<>:"/\|?*`), what breaks a notes app's links
 * (Obsidian's `#^[]`), and invisible format characters (bidi overrides, zero widths) that make a name look like
 * another.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*#^[\]\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;
/** Names Windows reserves for devices, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/**
 * The stem's budget in UTF-8 bytes: file systems count a name's bytes (255 on ext4, APFS and NTFS's UTF-16 units
 * fit within it), and the digest, the extension and a zip's folder need room beside it.
 */
const MAX_STEM_BYTES = 150;
const DIGEST_CHARS = 10;

/** A title as a safe stem: NFC, unsafe characters as spaces, one space between words, no leading or trailing dots. */
export function noteStem(title: string): string {
  const cleaned = title.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
  let stem = "";
  let bytes = 0;
  for (const ch of cleaned) {
    const size = Buffer.byteLength(ch, "utf8");
    if (bytes + size > MAX_STEM_BYTES) break;
    stem += ch;
    bytes += size;
  }
  stem = stem.replace(/^[.\s]+|[.\s]+$/g, "");
  if (RESERVED.test(stem)) stem = `_${stem}`;
  return stem;
}

/** A short, stable digest of a transcript's id (base32, lower case: the same on case-insensitive file systems). */
export function idDigest(id: string): string {
  const bytes = createHash("sha256").update(id, "utf8").digest();
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let out = "";
  for (let i = 0; out.length < DIGEST_CHARS; i++) out += alphabet[bytes[i]! & 31];
  return out;
}

/** The file name of a transcript's note: `<title> (<digest>).md`, or `<digest>.md` when no title is usable. */
export function noteFileName(title: string, id: string): string {
  const stem = noteStem(title);
  return stem === "" ? `${idDigest(id)}.md` : `${stem} (${idDigest(id)}).md`;
}
