import { createHash } from "node:crypto";
import { z } from "zod";

// A job's vocabulary: names and jargon the recogniser should expect, mapped to each engine's own mechanism.
//
//   AssemblyAI          keyterms_prompt: the terms as a list (up to 1,000 phrases of at most 6 words each)
//   OpenAI-compatible   prompt: the terms joined into one text (Whisper reads the last 224 tokens of it)
//   whisper.cpp         the initial prompt (params.initial_prompt), the same text
//
// Bounds: at most MAX_TERMS terms of at most MAX_TERM_CHARS characters and MAX_TERM_WORDS words. The word
// limit is AssemblyAI's own per phrase. The count keeps the job's stored input and the request small and
// inside what every engine reads: Whisper-family engines see only the end of a prompt of 224 tokens, about
// 100 short terms, so a longer list would be silently cut there (whisperPrompt keeps the first terms whole
// within WHISPER_PROMPT_CHARS instead). 50 characters holds any product or person's name; a longer "term"
// is a sentence, which belongs in a prompt no engine here is given.

export const MAX_TERMS = 100;
export const MAX_TERM_CHARS = 50;
export const MAX_TERM_WORDS = 6;
/** About 224 Whisper tokens of names and jargon (≈ 3.5 characters a token). */
export const WHISPER_PROMPT_CHARS = 780;

const termSchema = z
  .string()
  .transform((t) => t.trim().replace(/\s+/g, " "))
  .pipe(
    z
      .string()
      .min(1, "must not be empty")
      .max(MAX_TERM_CHARS, `must be at most ${MAX_TERM_CHARS} characters`)
      .regex(/^[^\p{Cc}\p{Cf}]+$/u, "must be plain text (no control characters)")
      .refine((t) => t.split(" ").length <= MAX_TERM_WORDS, `must be at most ${MAX_TERM_WORDS} words`),
  );

/** The request field: optional, a list of terms, duplicates (ignoring case) dropped, order kept. */
export const vocabularySchema = z
  .array(termSchema)
  .max(MAX_TERMS, `must have at most ${MAX_TERMS} terms`)
  .transform((terms) => normalizeVocabulary(terms))
  .describe(
    `Optional. Names and terms the speech recogniser should expect (at most ${MAX_TERMS}, each at most ${MAX_TERM_CHARS} characters and ${MAX_TERM_WORDS} words). Used only when the audio is recognised (not for platform captions); a transcript recognised with a vocabulary is stored apart from the one without.`,
  );

export function normalizeVocabulary(terms: readonly string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of terms ?? []) {
    const term = raw.trim().replace(/\s+/g, " ");
    const key = term.toLowerCase();
    if (!term || seen.has(key)) continue;
    seen.add(key);
    out.push(term);
  }
  return out;
}

/** whisper.cpp's initial prompt and OpenAI's `prompt`: the terms, comma-separated, whole terms only. */
export function whisperPrompt(vocabulary: readonly string[] | undefined): string | undefined {
  const terms = normalizeVocabulary(vocabulary);
  let prompt = "";
  for (const term of terms) {
    const next = prompt ? `${prompt}, ${term}` : term;
    if (next.length > WHISPER_PROMPT_CHARS) break;
    prompt = next;
  }
  return prompt ? `${prompt}.` : undefined;
}

/** AssemblyAI's keyterms_prompt: the terms as they are (already within its limits). */
export function assemblyAiKeyterms(vocabulary: readonly string[] | undefined): string[] | undefined {
  const terms = normalizeVocabulary(vocabulary);
  return terms.length > 0 ? terms : undefined;
}

/**
 * The part of a transcript's cache key that a vocabulary adds: "" without one (the shared entry), else a
 * digest of the terms in a canonical order (the same terms in another order are the same entry; another
 * spelling is not, since the spelling is what the recogniser is told).
 */
export function vocabularyKey(vocabulary: readonly string[] | undefined): string {
  const terms = normalizeVocabulary(vocabulary).sort();
  if (terms.length === 0) return "";
  return `v-${createHash("sha256").update(JSON.stringify(terms)).digest("hex").slice(0, 16)}`;
}
