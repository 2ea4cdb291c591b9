import { revalidatePath, revalidateTag } from "next/cache";

// Next.js caches the public pages (/t/{slug}, lib/http/security-headers.ts CACHED_PAGES) and the public
// index's first page and sitemaps (tag PUBLIC_INDEX_TAG). Whatever changes what they show expires them here,
// before the answer goes out, on every app process (lib/cache/next-cache-handler.mjs).

export const PUBLIC_INDEX_TAG = "public-index";

/**
 * Expires the cached pages of `slugs` (a cached 404 included) and the public index, at once: the next
 * request renders them again. Outside a request of the app (tests, scripts) there is no such cache.
 */
export function expirePublicPages(slugs: string[]): void {
  try {
    for (const slug of slugs) revalidatePath(`/t/${slug}`);
    revalidateTag(PUBLIC_INDEX_TAG, { expire: 0 });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Invariant: static generation store missing")) return;
    throw error;
  }
}
