import { randomInt } from "node:crypto";

// RFC 8628 6.1: user codes from 20 consonants (no vowels, so no words; no look-alike digits), 8 of them,
// shown in two groups of four. 20^8 ≈ 2.6e10 codes, and entering one is rate-limited.
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

export function generateUserCode(): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** "XXXXXXXX" → "XXXX-XXXX". */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed (any case, dashes, spaces) as the stored form, or null if it cannot be a code. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s\-\u2010-\u2015]/g, "");
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}
