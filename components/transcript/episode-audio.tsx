"use client";

import { useState } from "react";
import type { usePlayer } from "@/lib/browser/use-player";

type MediaProps = ReturnType<typeof usePlayer>["mediaProps"];

/**
 * A podcast episode's audio (its enclosure, lib/browser/transcripts.ts episodeAudio) in an <audio> element: the
 * player the reader drives through usePlayer's media element, as an upload's file, on the dashboard's viewer and
 * the public page alike. Nothing is fetched until it is played (`preload="none"`): the podcast's host counts
 * downloads, and a page view is not a listen. Where the host refuses it, a note and the link to the file.
 */
export function EpisodeAudio({ src, title, mediaProps }: { src: string; title: string; mediaProps: MediaProps }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <p
        className="rounded-lg border border-stone-200 bg-white p-3 text-sm text-stone-600"
        data-testid="episode-audio-failed"
      >
        The episode&apos;s audio cannot be played here.{" "}
        <a
          href={src}
          rel="nofollow noopener"
          className="text-sky-700 underline decoration-sky-300 hover:decoration-sky-700"
        >
          Listen at its host
        </a>
        .
      </p>
    );
  }
  return (
    <audio
      {...mediaProps}
      // A server-rendered element may have failed before this page hydrated (its error event went unheard).
      ref={(element: HTMLAudioElement | null) => {
        mediaProps.ref(element);
        if (element?.error) setFailed(true);
      }}
      src={src}
      controls
      preload="none"
      onError={() => setFailed(true)}
      className="block h-11 w-full"
      aria-label={`Player: ${title}`}
      data-testid="episode-audio"
    />
  );
}
