import { randomBytes } from "node:crypto";
import { SLUG_PATTERN } from "@/lib/teams/schemas";

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

function suffix(length: number): string {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** A slug made from a team's name ("Café Radio!" → "cafe-radio"), or "team-…" when the name has no letters to use. */
export function slugFromName(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return SLUG_PATTERN.test(base) ? base : `team-${suffix(6)}`;
}

/** `slug` with a random ending, for when it is taken. */
export function withRandomEnding(slug: string): string {
  return `${slug.slice(0, 32).replace(/-+$/, "")}-${suffix(6)}`;
}
