// The schema.org VideoObject (with the whole transcript) that search engines read from a public page's JSON-LD.
// Built where the page's lines are rendered (components/transcript/public/public-transcript.tsx, a client component, on the
// server first): there the segments are already at hand, so the transcript is not sent a second time in the
// page's React Server Components payload: a cached page costs what its bytes cost
// (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md). Pure, browser-safe.

/** Search engines read a few thousand words at most; the page itself has everything. */
const JSON_LD_TRANSCRIPT_CHARS = 100_000;

/** The VideoObject's fields other than the transcript (lib/publishing/page-meta.ts). */
export type VideoJsonLdHead = Record<string, string>;

export function transcriptText(segments: readonly { text: string }[]): string {
  return segments
    .map((segment) => segment.text.trim())
    .filter(Boolean)
    .join(" ");
}

/** The VideoObject with `transcript`, serialised for a <script type="application/ld+json"> (no "</script>" possible). */
export function videoJsonLd(head: VideoJsonLdHead, segments: readonly { text: string }[]): string {
  const text = transcriptText(segments);
  const data = {
    "@context": "https://schema.org",
    "@type": "VideoObject",
    ...head,
    transcript: text.length > JSON_LD_TRANSCRIPT_CHARS ? `${text.slice(0, JSON_LD_TRANSCRIPT_CHARS)}…` : text,
  };
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
