"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { formatClock, sourceHref, type Transcript } from "@/lib/browser/transcripts";
import { saveTranscriptEdit, storeSavedTranscript } from "@/lib/browser/transcript-edits";
import { paragraphText, redistributeParagraph } from "@/lib/edits/paragraph-text";
import { activeSegmentIndex, chapterStarts, findMatches, matchCountLabel } from "@/lib/browser/transcript-view";
import type { usePlayer } from "@/lib/browser/use-player";
import { keepInView, landBelowPinned } from "@/lib/browser/keep-in-view";
import { momentAnchor, momentSegment } from "@/lib/browser/moment-link";
import { activeWordIndex, readingParagraphs, READING_PARAGRAPHS, type TimedSegment } from "@/lib/formats/paragraphs";
import { rovingFocus, rovingKeyDown, useRovingFocus } from "@/lib/browser/roving-focus";
import { renderText, renderTimestampedText } from "@/lib/formats/text";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { CopyButton } from "@/components/transcript/dashboard/copy-button";
import { ParagraphEditor } from "@/components/transcript/dashboard/paragraph-editor";
import { SegmentLine } from "@/components/transcript/dashboard/segment-line";
import { ReadingView } from "@/components/transcript/reading-view";

type PlayerState = ReturnType<typeof usePlayer>;

/**
 * The readable transcript: by default the reading view (paragraphs, components/transcript/reading-view.tsx),
 * the cue list (one line per caption cue) one click away; chapters, the cue or word being played, search, the
 * moment a link names (`startAt`: History's and the dashboard search's `&t=`) scrolled to below the sticky
 * player and marked. The search bar stays pinned (under the phone's sticky player, at the top on wide screens);
 * the first match is shown as soon as it is typed. With `onSaved` (the author's own transcript), each paragraph can be
 * corrected in place.
 */
export function ReadableTranscript({
  transcript,
  player,
  canSeek,
  startAt = null,
  find = "",
  onSaved,
}: {
  transcript: Transcript;
  player: PlayerState;
  canSeek: boolean;
  startAt?: number | null;
  /** The find box's first text: its first match is shown, as if typed. */
  find?: string;
  /** A correction saved here: the transcript as the author now sees it. */
  onSaved?: (saved: Transcript) => void;
}) {
  // `words` where the source times each word (docs/decisions/0006-word-times-where-the-source-measured-them.md); the
  // generated client's type may not name it yet.
  const segments = useMemo(() => (transcript.segments ?? []) as TimedSegment[], [transcript.segments]);
  const chapters = useMemo(() => chapterStarts(segments, transcript.chapters ?? []), [segments, transcript.chapters]);
  const [query, setQuery] = useState(find);
  const [current, setCurrent] = useState(0);
  const [follow, setFollow] = useState(find === "");
  const [timestamps, setTimestamps] = useState(false);
  const [view, setView] = useState<"reading" | "cues">("reading");
  const list = useRef<HTMLOListElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const paragraphs = useMemo(
    () => readingParagraphs(segments, READING_PARAGRAPHS, chapters.keys()),
    [segments, chapters],
  );
  const moment = useMemo(
    () => (startAt === null ? -1 : momentSegment(segments, { seconds: startAt, segment: null })),
    [segments, startAt],
  );
  const matches = useMemo(() => findMatches(segments, query), [segments, query]);
  const matched = useMemo(() => new Set(matches.map((match) => match.segment)), [matches]);
  const active = activeSegmentIndex(segments, player.time);
  const activeWord = active >= 0 ? activeWordIndex(segments[active].words, player.time) : -1;
  const sourceLink = sourceHref(transcript.source_url);
  const searchId = useId();
  useRovingFocus(list, [segments, canSeek, view]);
  const queryClient = useQueryClient();
  // The paragraph being corrected in place (its index in `paragraphs`), or -1.
  const [editing, setEditing] = useState(-1);
  const onEdit = useCallback((paragraph: number) => setEditing(paragraph), []);
  const editedParagraph = paragraphs[editing];

  async function saveParagraph(text: string) {
    const { from, to } = editedParagraph;
    const corrected = redistributeParagraph(segments, from, to, text);
    if (corrected !== segments) {
      const saved = await saveTranscriptEdit(transcript.id, corrected);
      storeSavedTranscript(queryClient, saved);
      onSaved?.(saved);
    }
    setEditing(-1);
  }

  /** A segment's element in the view shown: its cue in the reading view, its line in the cue list. */
  const segmentElement = (index: number) =>
    view === "reading"
      ? (body.current?.querySelector<HTMLElement>(`[id="${momentAnchor(segments[index].start, index)}"]`) ?? null)
      : (body.current?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? null);

  // A moment link lands once: its cue below the sticky player and toolbar, marked; the player is cued there
  // (playerFor's start). Following waits until playback moves on, so that it does not scroll the moment away.
  const landed = useRef(false);
  useEffect(() => {
    if (landed.current || moment < 0) return;
    landed.current = true;
    const element = segmentElement(moment);
    if (element) landBelowPinned(element);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [moment]);

  // The line (or word) being played stays in view while following, once playback has moved: a player reports
  // 0 s as soon as it loads, which must not scroll the page away from its top.
  const moved = (player.time ?? 0) > 0;
  useEffect(() => {
    if (!follow || !moved || active < 0 || active === moment) return;
    const element =
      view === "reading"
        ? (body.current?.querySelector<HTMLElement>(".reading [data-playing]") ?? segmentElement(active))
        : segmentElement(active);
    if (element) keepInView(element);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, activeWord, follow, moved, view]);

  // Typing jumps to the first match (and stops following playback, which would scroll it away).
  useEffect(() => {
    if (matches.length === 0) return;
    const mark = body.current?.querySelector<HTMLElement>(`[data-match="0"]`);
    if (mark) keepInView(mark);
  }, [matches]);

  // Reading elsewhere pauses following: a wheel or touch scroll once playback has started.
  const started = player.time !== null;
  useEffect(() => {
    if (!follow || !started) return;
    const pause = () => setFollow(false);
    window.addEventListener("wheel", pause, { passive: true });
    window.addEventListener("touchmove", pause, { passive: true });
    return () => {
      window.removeEventListener("wheel", pause);
      window.removeEventListener("touchmove", pause);
    };
  }, [follow, started]);

  function goTo(index: number) {
    if (matches.length === 0) return;
    const next = (index + matches.length) % matches.length;
    setCurrent(next);
    setFollow(false);
    const mark = body.current?.querySelector<HTMLElement>(`[data-match="${next}"]`);
    if (mark) keepInView(mark);
  }

  if (segments.length === 0) return <p className="p-4 text-sm text-stone-600">This transcript has no text.</p>;
  const currentMatch = matches.length === 0 ? -1 : Math.min(current, matches.length - 1);
  const countLabel = matchCountLabel(currentMatch, matches.length, query);

  return (
    <div className="flex min-w-0 flex-col gap-2">
      {/* The search row stays in view while stepping through matches: on phones pinned right under the sticky
          player (its height is --player-height, set by the viewer), opaque like it, so that nothing shows through
          between them; on wide screens at the top of the text's column. The other controls scroll away. */}
      <div
        className="sticky top-[var(--player-height,0px)] z-10 -mx-4 flex flex-wrap items-center gap-2 bg-stone-50 px-4 py-1 sm:mx-0 sm:px-0 lg:top-0 lg:py-2"
        data-pinned
        data-testid="transcript-toolbar"
      >
        <form
          role="search"
          className="flex min-w-0 flex-1 basis-64 items-center gap-1"
          onSubmit={(event) => {
            event.preventDefault();
            goTo(currentMatch + 1);
          }}
        >
          <label htmlFor={searchId} className="sr-only">
            Search this transcript
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder="Search this transcript"
            autoComplete="off"
            onChange={(event) => {
              setQuery(event.target.value);
              setCurrent(0);
              if (event.target.value.trim()) setFollow(false);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter" && event.shiftKey) {
                event.preventDefault();
                goTo(currentMatch - 1);
              }
            }}
            className={`min-w-0 flex-1 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm placeholder:text-stone-500 max-sm:min-h-11 ${focusRing}`}
            data-testid="transcript-search"
          />
          <span
            className="min-w-16 text-center text-xs text-stone-600 tabular-nums"
            aria-live="polite"
            data-testid="search-count"
          >
            {countLabel}
          </span>
          <button
            type="button"
            className={buttonClass("secondary", "md", "max-sm:min-w-11")}
            onClick={() => goTo(currentMatch - 1)}
            disabled={matches.length === 0}
            aria-label="Previous match"
            data-testid="search-previous"
          >
            ↑
          </button>
          <button
            type="submit"
            className={buttonClass("secondary", "md", "max-sm:min-w-11")}
            disabled={matches.length === 0}
            aria-label="Next match"
            data-testid="search-next"
          >
            ↓
          </button>
        </form>
      </div>
      <div className="flex flex-wrap items-center gap-2" data-testid="transcript-options">
        <button
          type="button"
          className={buttonClass()}
          aria-pressed={view === "cues"}
          onClick={() => setView((shown) => (shown === "reading" ? "cues" : "reading"))}
          data-testid="view-toggle"
        >
          Cue list
        </button>
        {canSeek && (
          <button
            type="button"
            className={buttonClass()}
            aria-pressed={follow}
            onClick={() => setFollow((on) => !on)}
            data-testid="follow-toggle"
          >
            {follow ? "Auto-scroll on" : "Auto-scroll off"}
          </button>
        )}
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-1.5 text-sm text-stone-700 max-sm:min-h-11">
            <input
              type="checkbox"
              checked={timestamps}
              onChange={(event) => setTimestamps(event.target.checked)}
              className={`size-4 accent-stone-900 ${focusRing}`}
              data-testid="copy-timestamps"
            />
            Timestamps
          </label>
          <CopyButton
            text={() => (timestamps ? renderTimestampedText(segments) : renderText(segments))}
            label="Copy text"
          />
        </div>
      </div>

      <div ref={body} id="transcript-lines" className="min-w-0">
        {view === "reading" ? (
          <ReadingView
            segments={segments}
            paragraphs={paragraphs}
            chapters={chapters}
            active={active}
            activeWord={activeWord}
            moment={moment}
            matches={matches}
            currentMatch={currentMatch}
            onSeek={canSeek ? player.seek : null}
            edit={
              onSaved
                ? {
                    paragraph: editing,
                    onEdit,
                    editor: editedParagraph && (
                      <ParagraphEditor
                        text={paragraphText(segments, editedParagraph.from, editedParagraph.to)}
                        clock={formatClock(editedParagraph.start)}
                        onSave={saveParagraph}
                        onCancel={() => setEditing(-1)}
                      />
                    ),
                  }
                : null
            }
          />
        ) : (
          <ol
            ref={list}
            aria-label="Transcript lines (arrow keys move between timestamps)"
            onKeyDown={rovingKeyDown}
            onFocus={rovingFocus}
            className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white text-sm"
            data-testid="segments"
          >
            {segments.map((segment, index) => (
              <SegmentLine
                key={index}
                index={index}
                segment={segment}
                chapters={chapters.get(index)}
                active={index === active}
                matches={matches}
                currentMatch={matched.has(index) ? currentMatch : -1}
                hasMatch={matched.has(index)}
                onSeek={canSeek ? player.seek : null}
                sourceLink={sourceLink}
              />
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
