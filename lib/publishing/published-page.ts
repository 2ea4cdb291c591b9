import { cache } from "react";
import { findPublished } from "@/lib/publishing/public-transcript";
import { findShowOfEpisode } from "@/lib/publishing/show-page";
import { serializePublicTranscript } from "@/lib/publishing/serializers";
import type { PublicTranscript } from "@/lib/publishing/schemas";

/** The public transcript of a slug for the /t pages, read once per render (metadata and page share it). */
export const publishedForPage = cache(async (slug: string): Promise<PublicTranscript | null> => {
  const row = await findPublished(slug);
  return row ? serializePublicTranscript(row) : null;
});

/** The followed show a /t page's episode belongs to, for its link back to the show's page. */
export const showOfEpisodeForPage = cache(findShowOfEpisode);
