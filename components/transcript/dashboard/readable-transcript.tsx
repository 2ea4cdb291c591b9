"use client";

import { useCallback, useMemo, useRef, useState, type MouseEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { formatClock, sourceHref, type Transcript } from "@/lib/browser/transcripts";
import { forgetInAddress, plainClick, transcriptAddress } from "@/lib/browser/transcript-address";
import { saveTranscriptEdit, storeSavedTranscript } from "@/lib/browser/transcript-edits";
import { paragraphText, redistributeParagraph } from "@/lib/edits/paragraph-text";
import type { usePlayer } from "@/lib/browser/use-player";
import type { TimedSegment } from "@/lib/formats/paragraphs";
import { renderText, renderTimestampedText } from "@/lib/formats/text";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { CueList } from "@/components/transcript/cue-list";
import { FindBar } from "@/components/transcript/find-bar";
import { ReadingView } from "@/components/transcript/reading-view";
import { useTranscriptReader } from "@/components/transcript/use-transcript-reader";
import { ViewToggle } from "@/components/transcript/view-toggle";
import { PhoneShort } from "@/components/ui/phone-short";
import { CopyButton } from "@/components/transcript/dashboard/copy-button";
import { ParagraphEditor } from "@/components/transcript/dashboard/paragraph-editor";
import { SegmentLine } from "@/components/transcript/dashboard/segment-line";

type PlayerState = ReturnType<typeof usePlayer>;

/**
 * The dashboard's transcript reader (components/transcript/use-transcript-reader.ts): by default the reading
 * view (paragraphs, components/transcript/reading-view.tsx), the cue list (one line per caption cue) one click
 * away; chapters, the cue or word being played kept in view (until the reader scrolls away or turns it off),
 * search stepping through its matches, the moment a link names (`startAt`: History's and the dashboard search's
 * `&t=`) scrolled to below the sticky player and marked. The search bar stays pinned (under the phone's sticky
 * player, at the top on wide screens); the first match is shown as soon as it is typed. With `onSaved` (the
 * author's own transcript), each paragraph can be corrected in place.
 */
export interface ReadableTranscriptProps {
  transcript: Transcript;
  player: PlayerState;
  /** Whether there is a player to seek (timestamps play from there). */
  canSeek: boolean;
  /** The moment a link opened the transcript at (seconds), landed on below the sticky player and marked. */
  startAt?: number | null;
  /** The find box's first text: its first match is shown, as if typed. */
  find?: string;
  /** The paragraph whose editor the address opens (`&edit=<paragraph>`), or -1. */
  editParagraph?: number;
  /** A correction saved here: the transcript as the author now sees it. */
  onSaved?: (saved: Transcript) => void;
}

export function ReadableTranscript({
  transcript,
  player,
  canSeek,
  startAt = null,
  find = "",
  editParagraph = -1,
  onSaved,
}: ReadableTranscriptProps) {
  // `words` where the source times each word (docs/decisions/0006-word-times-where-the-source-measured-them.md); the
  // generated client's type may not name it yet.
  const segments = useMemo(() => (transcript.segments ?? []) as TimedSegment[], [transcript.segments]);
  const body = useRef<HTMLDivElement>(null);
  const reader = useTranscriptReader({
    body,
    segments,
    chapters: transcript.chapters ?? undefined,
    time: player.time,
    find: "step",
    initialQuery: find,
    startAt,
    follow: find === "",
  });
  const { paragraphs, view } = reader;
  const [timestamps, setTimestamps] = useState(false);
  const sourceLink = sourceHref(transcript.source_url);
  const queryClient = useQueryClient();
  // The paragraph being corrected in place (its index in `paragraphs`), or -1.
  const [editing, setEditingState] = useState(editParagraph);
  const setEditing = useCallback((paragraph: number) => {
    setEditingState(paragraph);
    if (paragraph < 0) forgetInAddress("edit");
  }, []);
  const editedParagraph = paragraphs[editing];
  // Every control is a link the server renders (Edit, a timestamp): followed before the page's scripts run, handled
  // here once they do.
  const editHref = useCallback(
    (paragraph: number) => transcriptAddress(transcript.id, { edit: paragraph }),
    [transcript.id],
  );
  const stampHref = useCallback((start: number) => transcriptAddress(transcript.id, { t: start }), [transcript.id]);
  const seek = player.seek;
  const onStampClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>, seconds: number) => {
      if (plainClick(event) && seek(seconds)) event.preventDefault();
    },
    [seek],
  );

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

  if (segments.length === 0) return <p className="p-4 text-sm text-stone-600">This transcript has no text.</p>;
  const onSeek = canSeek ? player.seek : null;

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
        <FindBar reader={reader} />
      </div>
      {/* One row on phones (swiped sideways where it is wider than the screen): a second row would push the text
          off the first screen. */}
      <div
        className="flex flex-wrap items-center gap-2 max-sm:-mx-4 max-sm:flex-nowrap max-sm:overflow-x-auto max-sm:px-4 max-sm:*:shrink-0"
        data-testid="transcript-options"
      >
        <ViewToggle reader={reader} />
        {canSeek && (
          <button
            type="button"
            className={buttonClass()}
            aria-pressed={reader.follow}
            onClick={reader.toggleFollow}
            data-testid="follow-toggle"
          >
            <PhoneShort long={reader.follow ? "Auto-scroll on" : "Auto-scroll off"} short="Auto-scroll" />
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
            <PhoneShort long="Timestamps" short="Times" />
          </label>
          <CopyButton
            text={() => (timestamps ? renderTimestampedText(segments) : renderText(segments))}
            label="Copy text"
            short="Copy"
          />
        </div>
      </div>

      <div ref={body} id="transcript-lines" className="min-w-0">
        {view === "reading" ? (
          <ReadingView
            segments={segments}
            paragraphs={paragraphs}
            chapters={reader.chapters}
            active={reader.active}
            activeWord={reader.activeWord}
            moment={reader.moment}
            matches={reader.matches}
            currentMatch={reader.currentMatch}
            onSeek={onSeek}
            stampHref={canSeek ? stampHref : null}
            onStampClick={onStampClick}
            edit={
              onSaved
                ? {
                    paragraph: editing,
                    onEdit: setEditing,
                    href: editHref,
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
          <CueList
            segments={segments}
            seekable={canSeek}
            className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white text-sm"
            testId="segments"
            line={(segment, index) => (
              <SegmentLine
                key={index}
                index={index}
                segment={segment}
                chapters={reader.chapters.get(index)}
                active={index === reader.active}
                matches={reader.matches}
                currentMatch={reader.matched.has(index) ? reader.currentMatch : -1}
                hasMatch={reader.matched.has(index)}
                onSeek={onSeek}
                sourceLink={sourceLink}
              />
            )}
          />
        )}
      </div>
    </div>
  );
}
