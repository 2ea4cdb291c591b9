import type { Metadata } from "next";
import { deepLinkPrefix } from "@/lib/formats/markdown";
import { transcriptText, type JsonLdHead } from "@/lib/publishing/json-ld";
import type { PublicTranscript } from "@/lib/publishing/schemas";
import { showPagePath } from "@/lib/publishing/show-links";
import type { EpisodeShow } from "@/lib/publishing/show-page";

// What the public page says about itself: its <title>, description, Open Graph and Twitter cards, and the
// head of the schema.org VideoObject or PodcastEpisode that search engines read from JSON-LD (json-ld.ts adds the
// transcript).

const DESCRIPTION_CHARS = 160;
export function pageTitle(transcript: Pick<PublicTranscript, "title">): string {
  return `${transcript.title?.trim() || "Untitled"} — transcript`;
}

export function pageDescription(transcript: PublicTranscript): string {
  const text = transcriptText(transcript.segments ?? []);
  if (text.length <= DESCRIPTION_CHARS) return text || "A timestamped transcript.";
  const cut = text.slice(0, DESCRIPTION_CHARS - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), DESCRIPTION_CHARS / 2)).trimEnd()}…`;
}

/** The platform's thumbnail, where there is a public one. */
export function thumbnailUrl(transcript: Pick<PublicTranscript, "platform" | "video_id">): string | null {
  if (transcript.platform === "youtube" && transcript.video_id)
    return `https://i.ytimg.com/vi/${encodeURIComponent(transcript.video_id)}/hqdefault.jpg`;
  return null;
}

/** The prefix of the platform's links to a moment ("<seconds>s" is appended), where it has such links. */
export function momentPrefix(transcript: Pick<PublicTranscript, "platform" | "video_id">): string | null {
  return transcript.video_id ? deepLinkPrefix(transcript.platform, transcript.video_id) : null;
}

/** The link a timestamp falls back to without the player: that moment on the platform, where it has such links. */
export function momentHref(
  transcript: Pick<PublicTranscript, "platform" | "video_id">,
  seconds: number,
): string | null {
  const prefix = momentPrefix(transcript);
  return prefix ? `${prefix}${Math.floor(seconds)}s` : null;
}

export function pageMetadata(transcript: PublicTranscript): Metadata {
  const title = pageTitle(transcript);
  const description = pageDescription(transcript);
  const image = thumbnailUrl(transcript);
  return {
    title,
    description,
    alternates: { canonical: transcript.url },
    openGraph: {
      type: "video.other",
      title,
      description,
      url: transcript.url,
      siteName: "Verbatim",
      ...(image ? { images: [{ url: image, width: 480, height: 360 }] } : {}),
    },
    twitter: {
      card: image ? "summary_large_image" : "summary",
      title,
      description,
      ...(image ? { images: [image] } : {}),
    },
  };
}

/**
 * The structured data's fields but the transcript, which the page's lines add (json-ld.ts). `show`: the followed
 * show the episode is on here, whose page is the series' `url`.
 */
export function jsonLdHead(
  transcript: PublicTranscript,
  embedUrl: string | null,
  show: EpisodeShow | null = null,
): JsonLdHead {
  const name = transcript.title?.trim() || "Untitled";
  const duration = `PT${Math.max(0, Math.round(transcript.duration_seconds))}S`;
  const published = transcript.source_published_at ?? show?.episodeDate?.toISOString() ?? transcript.published_at;
  if (transcript.platform === "podcast") {
    const series = transcript.channel?.trim() || show?.title;
    return {
      "@type": "PodcastEpisode",
      name,
      description: pageDescription(transcript),
      url: transcript.url,
      datePublished: published,
      inLanguage: transcript.lang,
      ...(series
        ? {
            partOfSeries: {
              "@type": "PodcastSeries",
              name: series,
              ...(show ? { url: new URL(showPagePath(show.slug), transcript.url).toString() } : {}),
            },
          }
        : {}),
      associatedMedia: {
        "@type": "AudioObject",
        ...(transcript.source_url ? { contentUrl: transcript.source_url } : {}),
        duration,
        inLanguage: transcript.lang,
      },
    };
  }
  const thumbnail = thumbnailUrl(transcript);
  return {
    "@type": "VideoObject",
    name,
    description: pageDescription(transcript),
    url: transcript.url,
    uploadDate: published,
    inLanguage: transcript.lang,
    duration,
    ...(thumbnail ? { thumbnailUrl: thumbnail } : {}),
    ...(embedUrl ? { embedUrl } : {}),
    ...(transcript.source_url ? { sameAs: transcript.source_url } : {}),
  };
}
