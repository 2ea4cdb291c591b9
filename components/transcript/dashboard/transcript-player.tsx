"use client";

import { useState } from "react";
import { isVideoFilename, mediaHref, type Player, type Transcript } from "@/lib/browser/transcripts";
import type { usePlayer } from "@/lib/browser/use-player";

type PlayerState = ReturnType<typeof usePlayer>;

/** The embedded YouTube or Vimeo player, driven over postMessage. */
export function PlayerFrame({
  player,
  title,
  frameProps,
}: {
  player: Player;
  title: string;
  frameProps: PlayerState["frameProps"];
}) {
  return (
    <div className="mx-auto aspect-video max-h-[16vh] max-w-full overflow-hidden rounded-lg border border-stone-200 bg-stone-900 lg:max-h-none lg:w-full">
      <iframe
        {...frameProps}
        src={player.src}
        title={`${player.kind === "youtube" ? "YouTube" : "Vimeo"} player: ${title}`}
        className="size-full"
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        data-testid="transcript-player"
      />
    </div>
  );
}

/** The upload's own file from GET /v1/transcripts/{id}/media; once the upload has expired, a note instead. */
export function UploadPlayer({
  transcript,
  mediaProps,
}: {
  transcript: Transcript;
  mediaProps: PlayerState["mediaProps"];
}) {
  const [gone, setGone] = useState(false);
  if (gone) {
    return (
      <p
        className="rounded-lg border border-stone-200 bg-white p-3 text-sm text-stone-600"
        data-testid="transcript-audio-gone"
      >
        The uploaded file is no longer kept on this server, so it cannot be played here. The transcript stays.
      </p>
    );
  }
  const common = {
    ...mediaProps,
    // A server-rendered element may have failed before this page hydrated (its error event went unheard).
    ref: (element: HTMLMediaElement | null) => {
      mediaProps.ref(element);
      if (element?.error) setGone(true);
    },
    src: mediaHref(transcript.id),
    controls: true,
    preload: "metadata" as const,
    onError: () => setGone(true),
    "data-testid": "transcript-audio",
  };
  return isVideoFilename(transcript.title) ? (
    <video
      {...common}
      className="mx-auto max-h-[16vh] w-full rounded-lg bg-black lg:max-h-none"
      aria-label={`Player: ${transcript.title ?? "uploaded file"}`}
    />
  ) : (
    <audio {...common} className="w-full" aria-label={`Player: ${transcript.title ?? "uploaded file"}`} />
  );
}
