/** The public page of a followed show (app/s/[slug]). */
export function showPagePath(slug: string): string {
  return `/s/${slug}`;
}

/** The show's feed of its transcribed episodes, each with its `<podcast:transcript>` files. */
export function showFeedPath(slug: string): string {
  return `/s/${slug}/feed.xml`;
}
