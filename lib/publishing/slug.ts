import { randomBytes } from "node:crypto";

const MAX_WORDS = 8;
const MAX_WORDS_LENGTH = 60;
const SUFFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no 0/o, 1/l
const SUFFIX_LENGTH = 6;

/** "The Talk: Ünïcode & more!" → "the-talk-unicode-more" (ASCII letters and digits, at most 8 words). */
export function slugWords(title: string | null): string {
  const words = (title ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
  let joined = "";
  for (const word of words) {
    const next = joined ? `${joined}-${word}` : word;
    if (next.length > MAX_WORDS_LENGTH) break;
    joined = next;
  }
  return joined || "transcript";
}

/** Title words and a random six-character suffix: readable, and not guessable from the title alone. */
export function newSlug(title: string | null): string {
  const bytes = randomBytes(SUFFIX_LENGTH);
  const suffix = Array.from(bytes, (b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join("");
  return `${slugWords(title)}-${suffix}`;
}

/** What a slug can look like; anything else is answered as unknown without a query. */
export function isSlug(value: string): boolean {
  return value.length <= 80 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}
