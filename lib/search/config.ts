// The text search configuration (stemming and stop words) for a transcript's language. The migration
// 20261123123000_transcript_search has the same table as the SQL function verbatim_search_config, which
// the index uses when it stores a transcript; search.int.test.ts checks that both agree.

const CONFIG_BY_LANGUAGE: Record<string, string> = {
  ar: "arabic",
  hy: "armenian",
  eu: "basque",
  ca: "catalan",
  da: "danish",
  nl: "dutch",
  en: "english",
  fi: "finnish",
  fr: "french",
  de: "german",
  el: "greek",
  hi: "hindi",
  hu: "hungarian",
  id: "indonesian",
  ga: "irish",
  it: "italian",
  lt: "lithuanian",
  ne: "nepali",
  no: "norwegian",
  nb: "norwegian",
  nn: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sr: "serbian",
  es: "spanish",
  sv: "swedish",
  ta: "tamil",
  tr: "turkish",
  yi: "yiddish",
};

/** Every configuration a passage can have: fixed names, safe to write into SQL. */
export const SEARCH_CONFIGS: readonly string[] = [...new Set([...Object.values(CONFIG_BY_LANGUAGE), "simple"])].sort();

/** The languages the table names (primary subtags), for the test that compares it with the SQL function. */
export const CONFIGURED_LANGUAGES: readonly string[] = Object.keys(CONFIG_BY_LANGUAGE);

/** `simple` (no stemming, no stop words) for a language PostgreSQL has no configuration for. */
export function searchConfig(lang: string): string {
  const primary = lang.replace(/_/g, "-").split("-")[0]!.toLowerCase();
  return CONFIG_BY_LANGUAGE[primary] ?? "simple";
}
