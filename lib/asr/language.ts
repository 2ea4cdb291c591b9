// Language codes: BCP-47 in Verbatim, AssemblyAI's own codes ("en_us"), Whisper's names ("english").

/** AssemblyAI's `language_code` values (TranscriptLanguageCode in the assemblyai SDK 4.41.5). */
export const ASSEMBLYAI_LANGUAGE_CODES: ReadonlySet<string> = new Set([
  "en",
  "en_au",
  "en_uk",
  "en_us",
  "es",
  "fr",
  "de",
  "de_ch",
  "it",
  "pt",
  "nl",
  "af",
  "sq",
  "am",
  "ar",
  "hy",
  "as",
  "az",
  "ba",
  "eu",
  "be",
  "bn",
  "bs",
  "br",
  "bg",
  "my",
  "ca",
  "zh",
  "hr",
  "cs",
  "da",
  "et",
  "fo",
  "fi",
  "gl",
  "ka",
  "el",
  "gu",
  "ht",
  "ha",
  "haw",
  "he",
  "hi",
  "hu",
  "is",
  "id",
  "ja",
  "jw",
  "kn",
  "kk",
  "km",
  "ko",
  "lo",
  "la",
  "lv",
  "ln",
  "lt",
  "lb",
  "mk",
  "mg",
  "ms",
  "ml",
  "mt",
  "mi",
  "mr",
  "mn",
  "ne",
  "no",
  "nn",
  "oc",
  "pa",
  "ps",
  "fa",
  "pl",
  "ro",
  "ru",
  "sa",
  "sr",
  "sn",
  "sd",
  "si",
  "sk",
  "sl",
  "so",
  "su",
  "sw",
  "sv",
  "tl",
  "tg",
  "ta",
  "tt",
  "te",
  "th",
  "bo",
  "tr",
  "tk",
  "uk",
  "ur",
  "uz",
  "vi",
  "cy",
  "yi",
  "yo",
]);

/** Deprecated or alternative primary subtags → the code ASR backends use. */
const PRIMARY_ALIASES: Readonly<Record<string, string>> = {
  iw: "he",
  in: "id",
  ji: "yi",
  jv: "jw", // Whisper and AssemblyAI spell Javanese "jw"
  nb: "no",
  fil: "tl",
  cmn: "zh",
};

function parts(lang: string): string[] {
  return lang.trim().replace(/_/g, "-").toLowerCase().split("-").filter(Boolean);
}

/** The primary language subtag, lowercased and de-aliased ("pt-BR" → "pt", "iw" → "he"); null for "", "und", "auto". */
export function primaryLanguage(lang: string): string | null {
  const primary = parts(lang)[0];
  if (!primary || primary === "und" || primary === "auto" || !/^[a-z]{2,3}$/.test(primary)) return null;
  return PRIMARY_ALIASES[primary] ?? primary;
}

/**
 * AssemblyAI's `language_code` for a BCP-47 tag, or null when AssemblyAI has no such language (then the
 * caller asks for language detection). Regional English keeps its region where AssemblyAI has one
 * (en-US → en_us, en-GB → en_uk, en-AU → en_au), Swiss German → de_ch; other regions fall back to the
 * language ("pt-BR" → "pt", "en-IN" → "en", "zh-Hant" → "zh").
 */
export function toAssemblyAiLanguage(lang: string): string | null {
  const primary = primaryLanguage(lang);
  if (!primary) return null;
  const region = parts(lang)
    .slice(1)
    .find((p) => /^([a-z]{2}|\d{3})$/.test(p));
  if (primary === "en") {
    if (region === "us") return "en_us";
    if (region === "gb" || region === "uk") return "en_uk";
    if (region === "au") return "en_au";
  }
  if (primary === "de" && region === "ch") return "de_ch";
  return ASSEMBLYAI_LANGUAGE_CODES.has(primary) ? primary : null;
}

/** AssemblyAI's `language_code` back to BCP-47 ("en_us" → "en-US", "en_uk" → "en-GB", "jw" → "jv"). */
export function fromAssemblyAiLanguage(code: string | null | undefined): string | null {
  if (!code) return null;
  const lower = code.toLowerCase();
  if (lower === "en_uk") return "en-GB";
  if (lower === "jw") return "jv";
  const [primary, region] = lower.split("_");
  return region ? `${primary}-${region.toUpperCase()}` : primary;
}

/** Whisper's language names (openai/whisper tokenizer.py LANGUAGES), name → ISO 639-1 code. */
const WHISPER_LANGUAGES: Readonly<Record<string, string>> = {
  english: "en",
  chinese: "zh",
  german: "de",
  spanish: "es",
  russian: "ru",
  korean: "ko",
  french: "fr",
  japanese: "ja",
  portuguese: "pt",
  turkish: "tr",
  polish: "pl",
  catalan: "ca",
  dutch: "nl",
  arabic: "ar",
  swedish: "sv",
  italian: "it",
  indonesian: "id",
  hindi: "hi",
  finnish: "fi",
  vietnamese: "vi",
  hebrew: "he",
  ukrainian: "uk",
  greek: "el",
  malay: "ms",
  czech: "cs",
  romanian: "ro",
  danish: "da",
  hungarian: "hu",
  tamil: "ta",
  norwegian: "no",
  thai: "th",
  urdu: "ur",
  croatian: "hr",
  bulgarian: "bg",
  lithuanian: "lt",
  latin: "la",
  maori: "mi",
  malayalam: "ml",
  welsh: "cy",
  slovak: "sk",
  telugu: "te",
  persian: "fa",
  latvian: "lv",
  bengali: "bn",
  serbian: "sr",
  azerbaijani: "az",
  slovenian: "sl",
  kannada: "kn",
  estonian: "et",
  macedonian: "mk",
  breton: "br",
  basque: "eu",
  icelandic: "is",
  armenian: "hy",
  nepali: "ne",
  mongolian: "mn",
  bosnian: "bs",
  kazakh: "kk",
  albanian: "sq",
  swahili: "sw",
  galician: "gl",
  marathi: "mr",
  punjabi: "pa",
  sinhala: "si",
  khmer: "km",
  shona: "sn",
  yoruba: "yo",
  somali: "so",
  afrikaans: "af",
  occitan: "oc",
  georgian: "ka",
  belarusian: "be",
  tajik: "tg",
  sindhi: "sd",
  gujarati: "gu",
  amharic: "am",
  yiddish: "yi",
  lao: "lo",
  uzbek: "uz",
  faroese: "fo",
  "haitian creole": "ht",
  pashto: "ps",
  turkmen: "tk",
  nynorsk: "nn",
  maltese: "mt",
  sanskrit: "sa",
  luxembourgish: "lb",
  myanmar: "my",
  tibetan: "bo",
  tagalog: "tl",
  malagasy: "mg",
  assamese: "as",
  tatar: "tt",
  hawaiian: "haw",
  lingala: "ln",
  hausa: "ha",
  bashkir: "ba",
  javanese: "jw",
  sundanese: "su",
  cantonese: "yue",
  // Aliases whisper accepts.
  burmese: "my",
  valencian: "ca",
  flemish: "nl",
  haitian: "ht",
  letzeburgesch: "lb",
  pushto: "ps",
  panjabi: "pa",
  moldavian: "ro",
  moldovan: "ro",
  sinhalese: "si",
  castilian: "es",
  mandarin: "zh",
};

/**
 * The `language` of a verbose_json answer as a code: OpenAI answers with Whisper's name ("english"),
 * several compatible servers with the code ("en"). Null when it is neither.
 */
export function fromWhisperLanguage(language: unknown): string | null {
  if (typeof language !== "string" || !language.trim()) return null;
  const lower = language.trim().toLowerCase();
  const byName = WHISPER_LANGUAGES[lower];
  if (byName) return byName === "jw" ? "jv" : byName;
  if (/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/.test(lower)) return primaryLanguage(lower) === "jw" ? "jv" : language.trim();
  return null;
}

const WHISPER_CODES: ReadonlySet<string> = new Set(Object.values(WHISPER_LANGUAGES));

/** Whisper's code for a BCP-47 tag ("pt-BR" → "pt", "jv" → "jw"), or "auto" (detect) when Whisper has no such language. */
export function toWhisperLanguage(lang: string): string {
  const primary = primaryLanguage(lang);
  const code = primary === "jv" ? "jw" : primary;
  return code && WHISPER_CODES.has(code) ? code : "auto";
}
