import { importDeps } from "@/lib/imports/deps";
import type { ListDeps } from "@/lib/imports/list-source";
import { DEFAULT_FEED_PARSE } from "@/lib/podcasts/fetch-feed";

/** Items of a listing a follow looks at (feeds and channels list newest first) (listLimit). */
export const FOLLOW_LIST_MAX = 500;
/** Characters a follow keeps of a title (500) or a guid (1,000). */
const FOLLOW_TEXT_MAX = 1000;

/**
 * What follows fetch and list with: the imports' (feeds and Apple links through the guard, yt-dlp behind it).
 * A feed's parse thread sends back only what a follow keeps (its newest items, titles and guids as stored):
 * the answer is rebuilt on the event loop, and a big feed's every episode in full held it for hundreds of ms.
 */
export function followDeps(): ListDeps {
  const deps = importDeps();
  const parse = deps.parse ?? DEFAULT_FEED_PARSE;
  return {
    ...deps,
    parse: { ...parse, maxEpisodes: Math.min(parse.maxEpisodes, FOLLOW_LIST_MAX), maxTextLength: FOLLOW_TEXT_MAX },
  };
}
