"use client";

import type { z } from "zod";
import type { languagesResponseSchema } from "@/lib/transcripts/schemas";
import { apiFetch } from "@/lib/browser/api";

export type LanguagesResponse = z.infer<typeof languagesResponseSchema>;

/** The caption languages a video has (GET /v1/languages), with its title and length. */
export function fetchLanguages(url: string): Promise<LanguagesResponse> {
  return apiFetch<LanguagesResponse>(`/v1/languages?${new URLSearchParams({ url })}`);
}

const primary = (code: string) => code.replace(/_/g, "-").split("-")[0]!.toLowerCase();

/**
 * Whether asking for `lang` gets captions rather than speech recognition: the server takes the same
 * language with another region ("en" for "en-GB") as a match (lib/captions/pick-track.ts).
 */
export function hasCaptionsIn(languages: LanguagesResponse["languages"], lang: string): boolean {
  return languages.some((language) => primary(language.code) === primary(lang));
}
