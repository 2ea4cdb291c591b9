/**
 * Source URLs: which platform a pasted URL belongs to, its id, and one canonical URL per item.
 *
 *   import { parseSourceUrl, resolveShortLink, SUPPORTED_PLATFORMS_SENTENCE } from "@/lib/sources";
 */
export {
  AUDIO_EXTENSIONS,
  MAX_SOURCE_URL_LENGTH,
  PLATFORMS,
  SUPPORTED_PLATFORMS_SENTENCE,
  isPlatform,
  parseSourceUrl,
  type ParsedSource,
  type ParseOptions,
  type Platform,
} from "./parse";
export { linkInHtml, resolveShortLink, type ResolveOptions } from "./resolve";
