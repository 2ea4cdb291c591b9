"use client";

// The player beside a transcript, for the dashboard's viewer and the public page alike: an embedded
// YouTube/Vimeo frame (driven over postMessage, no third-party script) or a media element (an upload's
// own file, a podcast episode's audio). One hook gives the playback position and a way to seek, whichever it is.

import { useCallback, useEffect, useRef, useState } from "react";
import { playMessages, seekMessages, type Player } from "@/lib/browser/transcripts";
import { listenMessages, reportedPlaying, reportedTime } from "@/lib/browser/transcript-view";

/** `startAt`: the moment the page opens at (a search result): shown as the current line, the player cued there. */
export function usePlayer(player: Player | null, startAt: number | null = null) {
  const frame = useRef<HTMLIFrameElement>(null);
  const media = useRef<HTMLMediaElement>(null);
  const [time, setTime] = useState<number | null>(startAt);
  // Cued at a moment and not played yet: a player that reports 0 s until it plays must not move the mark away.
  const cued = useRef(startAt !== null && startAt >= 0.5);
  // Whether the embedded player last said it plays (a media element is asked directly); read by the keys.
  const playing = useRef(false);
  // Where a media element starts once its metadata is in (a moment link's, before the element has loaded).
  const mediaStart = useRef(startAt);

  useEffect(() => {
    if (!player) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== player.origin || event.source !== frame.current?.contentWindow) return;
      const state = reportedPlaying(player.kind, event.data);
      if (state !== null) playing.current = state;
      const seconds = reportedTime(player.kind, event.data);
      if (seconds === null) return;
      if (cued.current) {
        if (seconds < 0.5) return;
        cued.current = false;
      }
      setTime(seconds);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [player]);

  const post = useCallback(
    (messages: string[]) => {
      const target = frame.current?.contentWindow;
      if (!player || !target) return false;
      for (const message of messages) target.postMessage(message, player.origin);
      return true;
    },
    [player],
  );

  const attachMedia = useCallback((element: HTMLMediaElement | null) => {
    media.current = element;
  }, []);

  // A server-rendered frame may have loaded before this page hydrated (its onLoad then went unheard).
  useEffect(() => {
    if (player) post(listenMessages(player.kind));
  }, [player, post]);

  /** Plays from `seconds`; false when there is no player to seek. */
  const seek = useCallback(
    (seconds: number) => {
      cued.current = false;
      mediaStart.current = null;
      const element = media.current;
      if (element) {
        element.currentTime = seconds;
        void element.play().catch(() => undefined);
        setTime(seconds);
        return true;
      }
      if (player && post(seekMessages(player.kind, seconds))) {
        setTime(seconds);
        return true;
      }
      return false;
    },
    [player, post],
  );

  /** Plays if stopped, pauses if playing; false when there is no player. */
  const toggle = useCallback(() => {
    const element = media.current;
    if (element) {
      if (element.paused) void element.play().catch(() => undefined);
      else element.pause();
      return true;
    }
    const play = !playing.current;
    if (!post(playMessages(player?.kind ?? "youtube", play))) return false;
    playing.current = play;
    return true;
  }, [player, post]);

  /** Moves by `delta` seconds from where playback is, playing or paused as it was; false when there is no player. */
  const skip = useCallback(
    (delta: number) => {
      cued.current = false;
      mediaStart.current = null;
      const element = media.current;
      if (element) {
        element.currentTime = Math.max(0, element.currentTime + delta);
        return true;
      }
      const to = Math.max(0, (time ?? 0) + delta);
      if (!player || !post(seekMessages(player.kind, to, false))) return false;
      setTime(to);
      return true;
    },
    [player, post, time],
  );

  /**
   * Shows `seconds` as the moment being played without playing (a moment link). A media element is cued here (at
   * once where it has loaded, else when its metadata is in); an embedded frame is cued by the caller.
   */
  const cue = useCallback((seconds: number) => {
    cued.current = seconds >= 0.5;
    mediaStart.current = seconds;
    const element = media.current;
    if (element && element.readyState > 0) element.currentTime = seconds;
    setTime(seconds);
  }, []);

  /** Props for the iframe: asks the player to report its position once it has loaded. */
  const frameProps = { ref: frame, onLoad: () => player && post(listenMessages(player.kind)) };
  /** Props for an <audio>/<video>. */
  const mediaProps = {
    ref: attachMedia,
    onTimeUpdate: (event: { currentTarget: HTMLMediaElement }) => setTime(event.currentTarget.currentTime),
    onSeeked: (event: { currentTarget: HTMLMediaElement }) => setTime(event.currentTarget.currentTime),
    onLoadedMetadata: (event: { currentTarget: HTMLMediaElement }) => {
      const at = mediaStart.current;
      if (at !== null && event.currentTarget.currentTime < 0.5) event.currentTarget.currentTime = at;
    },
  };
  return { time, seek, cue, toggle, skip, frameProps, mediaProps };
}
