import path from "node:path";
import { FORMAT_INFO, parseFormat, type Format } from "@/lib/formats";
import type { Env } from "@/lib/env";

export interface WatchSettings {
  /** The folder, absolute (as given; its real path is taken when the watch starts). */
  dir: string;
  /** A person's e-mail or a team's slug, lower-cased. */
  account: string;
  /** Written beside each file, in this order, each once; none when the account's export destinations are its way out. */
  formats: Format[];
  lang: string;
  pollMs: number;
  settleMs: number;
}

/** The watch folder's settings, or null when WATCH_DIR is unset. Throws "WATCH_FORMATS: …" on an unknown format. */
export function watchSettings(settings: Env): WatchSettings | null {
  if (!settings.WATCH_DIR || !settings.WATCH_ACCOUNT) return null;
  return {
    dir: path.resolve(settings.WATCH_DIR),
    account: settings.WATCH_ACCOUNT,
    formats: watchFormats(settings.WATCH_FORMATS),
    lang: settings.WATCH_LANG,
    pollMs: settings.WATCH_POLL_MS,
    settleMs: settings.WATCH_SETTLE_MS,
  };
}

/**
 * `srt,md` → ["srt", "md"]: the API's format tokens and aliases (txt, markdown), duplicates dropped. `none` → []:
 * nothing beside the files (the account's export destinations receive each transcript as they do any new one).
 */
export function watchFormats(list: string): Format[] {
  if (list.trim().toLowerCase() === "none") return [];
  const formats: Format[] = [];
  for (const token of list.split(",").map((t) => t.trim())) {
    if (!token) continue;
    const format = parseFormat(token);
    if (!format) {
      const known = Object.keys(FORMAT_INFO).join(", ");
      throw new Error(`WATCH_FORMATS: "${token.slice(0, 40)}" is not a format (one of ${known}, txt, markdown)`);
    }
    if (!formats.includes(format)) formats.push(format);
  }
  if (formats.length === 0) throw new Error("WATCH_FORMATS: name at least one format (such as srt,md), or none");
  return formats;
}
