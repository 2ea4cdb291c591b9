import { env } from "@/lib/env";
import { podcastDeps } from "@/lib/podcasts/deps";
import type { ListDeps } from "@/lib/imports/list-source";

let replacement: ListDeps | undefined;

/** What the import pipeline lists sources with: the podcast deps (feeds, Apple links) and yt-dlp behind the same guard. */
export function importDeps(): ListDeps {
  return replacement ?? { ...podcastDeps(), ytdlp: { binary: env().YTDLP_PATH } };
}

/**
 * Test hook: the import pipeline lists with these instead (a job carries no functions, so a test cannot hand
 * them to it otherwise), e.g. an outbound whose upstream proxy leads yt-dlp to a fake YouTube. `undefined`
 * goes back to the settings'.
 */
export function setImportDepsForTests(deps: ListDeps | undefined): void {
  replacement = deps;
}
