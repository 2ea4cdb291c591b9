import { create } from "content-disposition";

/**
 * The Content-Disposition of a transcript download, named after its title: "Why ice floats (en).srt".
 * The title is made safe as a file name on every system (no path separators, control or bidi
 * characters, nothing Windows refuses, no leading or trailing dots, at most 100 characters); the
 * header carries it as RFC 5987 `filename*` (UTF-8) with a plain-ASCII `filename` beside it for old
 * clients. A title with nothing usable left (or none) gives the id-based name.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;
const MAX_STEM = 100;

/** A title as a file name's stem: safe characters only, one space between words; "" when none are left. */
export function safeFileStem(title: string): string {
  const cleaned = title.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
  return [...cleaned]
    .slice(0, MAX_STEM)
    .join("")
    .replace(/^[.\s]+|[.\s]+$/g, "");
}

/** The ASCII fallback of a stem: accents dropped, other characters as "_"; "" when no letter or digit is left. */
function asciiStem(stem: string): string {
  const ascii = stem
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]+/g, "_")
    .replace(/[%\\]/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_.\s]+|[_.\s]+$/g, "");
  return /[A-Za-z0-9]/.test(ascii) ? ascii : "";
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` for a download named `title (lang).extension`, else
 * `idStem.extension` (`idStem` is ASCII, e.g. "youtube-kXq8vN2Lr5A-en").
 */
export function attachmentDisposition(title: string | null, lang: string, idStem: string, extension: string): string {
  const stem = title ? safeFileStem(title) : "";
  if (!stem) return create(`${idStem}.${extension}`);
  const name = `${stem} (${lang}).${extension}`;
  const ascii = asciiStem(stem);
  return create(name, { fallback: ascii ? `${ascii} (${lang}).${extension}` : `${idStem}.${extension}` });
}
