// The subtitle keys of yt-dlp's info dict ("en", "eng-US", "en_US", "zh-TW", "en-x-autogen", "live_chat") as
// the language codes CaptionTrack uses, and their English names. Pure: no I/O.

/** Track keys that are not captions of the spoken words. */
const EXCLUDED_KEYS = new Set(["live_chat", "danmaku", "rechat", "comments"]);

/** Codes that name no language ("undetermined", "multiple", "no linguistic content", "uncoded"). */
const NO_LANGUAGE = new Set(["und", "mul", "zxx", "mis", "xx"]);

/** ISO 639-2/B, 639-2/T and 639-3 codes of common languages → ISO 639-1; deprecated 639-1 codes → current. */
const TO_639_1: Record<string, string> = {
  afr: "af",
  amh: "am",
  ara: "ar",
  aze: "az",
  bel: "be",
  ben: "bn",
  bos: "bs",
  bul: "bg",
  cat: "ca",
  ces: "cs",
  cze: "cs",
  cym: "cy",
  wel: "cy",
  dan: "da",
  deu: "de",
  ger: "de",
  ell: "el",
  gre: "el",
  eng: "en",
  epo: "eo",
  est: "et",
  eus: "eu",
  baq: "eu",
  fas: "fa",
  per: "fa",
  pes: "fa",
  fin: "fi",
  fra: "fr",
  fre: "fr",
  gle: "ga",
  glg: "gl",
  guj: "gu",
  hau: "ha",
  heb: "he",
  hin: "hi",
  hrv: "hr",
  hun: "hu",
  hye: "hy",
  arm: "hy",
  ibo: "ig",
  ind: "id",
  isl: "is",
  ice: "is",
  ita: "it",
  jav: "jv",
  jpn: "ja",
  kat: "ka",
  geo: "ka",
  kaz: "kk",
  khm: "km",
  kan: "kn",
  kor: "ko",
  kur: "ku",
  lao: "lo",
  lat: "la",
  lav: "lv",
  lit: "lt",
  mal: "ml",
  mar: "mr",
  mkd: "mk",
  mac: "mk",
  mon: "mn",
  msa: "ms",
  may: "ms",
  zsm: "ms",
  mya: "my",
  bur: "my",
  nep: "ne",
  nld: "nl",
  dut: "nl",
  nor: "no",
  nob: "nb",
  nno: "nn",
  pan: "pa",
  pol: "pl",
  por: "pt",
  pus: "ps",
  ron: "ro",
  rum: "ro",
  rus: "ru",
  sin: "si",
  slk: "sk",
  slo: "sk",
  slv: "sl",
  som: "so",
  spa: "es",
  sqi: "sq",
  alb: "sq",
  srp: "sr",
  sun: "su",
  swa: "sw",
  swh: "sw",
  swe: "sv",
  tam: "ta",
  tat: "tt",
  tel: "te",
  tha: "th",
  tgl: "tl",
  tur: "tr",
  ukr: "uk",
  urd: "ur",
  uzb: "uz",
  vie: "vi",
  yor: "yo",
  zho: "zh",
  chi: "zh",
  cmn: "zh",
  zul: "zu",
  yid: "yi",
  iw: "he",
  in: "id",
  ji: "yi",
  jw: "jv",
};

const SIMPLIFIED_REGIONS = new Set(["CN", "SG", "MY"]);
const TRADITIONAL_REGIONS = new Set(["TW", "HK", "MO"]);
const LATIN_AMERICA = new Set(["419", "LA", "MX", "AR", "CO", "CL", "PE", "VE", "US"]);

export interface NormalizedLang {
  lang: string;
  /** The key itself says the track is machine-made (Vimeo's "en-x-autogen"). */
  auto: boolean;
}

/**
 * Normalizes a yt-dlp subtitle key to the BCP-47-ish code CaptionTrack uses, or null for keys that are
 * not a caption language (live_chat, danmaku, "-orig" duplicates, und).
 *
 * - `_` separators become `-` (Facebook's "en_US");
 * - 3-letter ISO 639-2/3 codes of common languages become 2-letter (TikTok's "eng-US" → "en");
 * - Chinese keeps its script: "cmn-Hans-CN", "zh-CN" → "zh-Hans"; "zh-TW", "zh-HK" → "zh-Hant";
 * - the region is dropped (platforms attach a default one: TikTok "eng-US", Facebook "en_US") except
 *   where it changes the written language: pt-BR / pt-PT, and Latin American Spanish ("es_LA", "es-MX",
 *   "es-419") → "es-419";
 * - Vimeo's private-use "-x-autogen" marks an auto caption and is removed.
 */
export function normalizeLang(key: string): NormalizedLang | null {
  let code = key.trim();
  if (code === "" || EXCLUDED_KEYS.has(code.toLowerCase()) || /-orig$/i.test(code)) return null;
  let auto = false;
  const privateUse = /[-_]x[-_](.*)$/i.exec(code);
  if (privateUse) {
    auto = /autogen|auto|asr/i.test(privateUse[1] ?? "");
    code = code.slice(0, privateUse.index);
  }
  const parts = code.split(/[-_]/).filter((p) => p !== "");
  let base = (parts.shift() ?? "").toLowerCase();
  if (!/^[a-z]{2,3}$/.test(base)) return null;
  base = TO_639_1[base] ?? base;
  if (NO_LANGUAGE.has(base)) return null;

  let script: string | null = null;
  let region: string | null = null;
  for (const p of parts) {
    if (/^[A-Za-z]{4}$/.test(p) && script === null && region === null)
      script = p[0]!.toUpperCase() + p.slice(1).toLowerCase();
    else if (/^([A-Za-z]{2}|\d{3})$/.test(p) && region === null) region = p.toUpperCase();
  }

  if (base === "zh") {
    if (script === "Hans" || script === "Hant") return { lang: `zh-${script}`, auto };
    if (region && SIMPLIFIED_REGIONS.has(region)) return { lang: "zh-Hans", auto };
    if (region && TRADITIONAL_REGIONS.has(region)) return { lang: "zh-Hant", auto };
    return { lang: "zh", auto };
  }
  if (base === "pt" && (region === "BR" || region === "PT")) return { lang: `pt-${region}`, auto };
  if (base === "es" && region !== null && LATIN_AMERICA.has(region)) return { lang: "es-419", auto };
  if (base === "sr" && script === "Latn") return { lang: "sr-Latn", auto };
  return { lang: base, auto };
}

let displayNames: Intl.DisplayNames | null | undefined;

/** English name of a language code ("en" → "English", "zh-Hans" → "Simplified Chinese"), null if unknown. */
export function languageName(lang: string): string | null {
  if (displayNames === undefined) {
    try {
      displayNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
    } catch {
      displayNames = null;
    }
  }
  try {
    const name = displayNames?.of(lang);
    return name && name !== lang && name !== "root" ? name : null;
  } catch {
    return null;
  }
}
