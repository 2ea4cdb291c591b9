import { importDeps } from "@/lib/imports/deps";
import type { ListDeps } from "@/lib/imports/list-source";

/** What follows fetch and list with: the imports' (feeds and Apple links through the guard, yt-dlp behind it). */
export function followDeps(): ListDeps {
  return importDeps();
}
