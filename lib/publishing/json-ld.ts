// The schema.org object (with the whole transcript) that search engines read from a public page's JSON-LD: a
// VideoObject for a video, a PodcastEpisode (partOfSeries its PodcastSeries) for a podcast's episode, whose
// transcript sits on its AudioObject (schema.org gives `transcript` to AudioObject and VideoObject, not to episodes).
// Built where the page's lines are rendered (components/transcript/public/public-transcript.tsx, a client component, on the
// server first): there the segments are already at hand, so the transcript is not sent a second time in the
// page's React Server Components payload: a cached page costs what its bytes cost
// (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md). Pure, browser-safe.

/** Search engines read a few thousand words at most; the page itself has everything. */
const JSON_LD_TRANSCRIPT_CHARS = 100_000;

/** The object's fields other than the transcript, "@type" among them (lib/publishing/page-meta.ts). */
export type JsonLdHead = { "@type": "VideoObject" | "PodcastEpisode" } & Record<string, unknown>;

export function transcriptText(segments: readonly { text: string }[]): string {
  return segments
    .map((segment) => segment.text.trim())
    .filter(Boolean)
    .join(" ");
}

/** The object with `transcript`, serialised for a <script type="application/ld+json"> (no "</script>" possible). */
export function transcriptJsonLd(head: JsonLdHead, segments: readonly { text: string }[]): string {
  const full = transcriptText(segments);
  const transcript = full.length > JSON_LD_TRANSCRIPT_CHARS ? `${full.slice(0, JSON_LD_TRANSCRIPT_CHARS)}…` : full;
  const media = head.associatedMedia;
  const data =
    head["@type"] === "PodcastEpisode" && media && typeof media === "object"
      ? { "@context": "https://schema.org", ...head, associatedMedia: { ...media, transcript } }
      : { "@context": "https://schema.org", ...head, transcript };
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
