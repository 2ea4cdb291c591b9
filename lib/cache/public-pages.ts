import { revalidatePath, revalidateTag } from "next/cache";

// Next.js caches the public pages (/t/{slug}, the shows' /s/{slug}), /explore's first page, and the data of that page and of the
// sitemaps (tag PUBLIC_INDEX_TAG). Whatever changes what they show expires them here,
// before the answer goes out, on every app process (lib/cache/next-cache-handler.mjs).

export const PUBLIC_INDEX_TAG = "public-index";

/**
 * Expires the cached pages of `slugs` (a cached 404 included) and the public index, at once: the next
 * request renders them again. Outside a request of the app (tests, scripts) there is no such cache.
 */
export function expirePublicPages(slugs: string[]): void {
  try {
    for (const slug of slugs) revalidatePath(`/t/${slug}`);
    if (slugs.length > 0) revalidatePath("/s/[slug]", "page"); // every show page: which shows list a slug is not known here
    revalidatePath("/explore/newest"); // /explore (next.config.ts rewrites)
    revalidateTag(PUBLIC_INDEX_TAG, { expire: 0 });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Invariant: static generation store missing")) return;
    throw error;
  }
}
