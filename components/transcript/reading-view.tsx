"use client";

import { Fragment, memo, useCallback, useRef, type MouseEvent, type ReactNode } from "react";
import { formatClock } from "@/lib/browser/transcripts";
import type { SearchMatch } from "@/lib/browser/transcript-view";
import { momentAnchor } from "@/lib/browser/moment-link";
import { plainClick } from "@/lib/browser/transcript-address";
import { rovingFocus, rovingKeyDown, useRovingFocus } from "@/lib/browser/roving-focus";
import type { ReadingParagraph, TimedSegment } from "@/lib/formats/paragraphs";
import { MarkedText } from "@/components/transcript/marked-text";
import { SpeakerLabel } from "@/components/transcript/speaker-label";

// The reading view: a transcript as paragraphs of prose, a timestamp on each, for the dashboard's
// viewer and the public page alike. The paragraph model (lib/formats/paragraphs.ts) is built by the caller;
// this only draws it. Each cue is a span whose id is its moment anchor (#t<seconds>-<index>, what public links
// point at), so a moment link lands without JavaScript; with a player, a click on a cue (or on a word, where
// the segment has word times) plays from there (one listener for the whole view), the cue or word being played
// is marked, and the moment a link named is marked apart. Styled through the view's one class (app/globals.css
// `.reading`): a public page has thousands of cues and every byte of a cached page counts.

const NO_MATCHES: SearchMatch[] = [];
/** A cue: the spans of a paragraph that carry a moment anchor. */
export const CUE = ".reading p > span[id]";

export interface ReadingViewProps {
  segments: readonly TimedSegment[];
  paragraphs: readonly ReadingParagraph[];
  /** Chapter titles by the segment they start at. */
  chapters?: ReadonlyMap<number, string[]>;
  /** The segment being played and, where it has words, the word; -1: none. */
  active: number;
  activeWord: number;
  /** The segment a moment link landed on; -1: none. */
  moment: number;
  /** The search's matches (findMatches) and the current one's index; [] and -1 without a search. */
  matches: readonly SearchMatch[];
  currentMatch: number;
  /** Only the paragraphs holding one of these segments are shown (the public page's search); null: all. */
  only?: ReadonlySet<number> | null;
  /** Plays from a time; null: nothing to play (the timestamps are then links, or plain text). */
  onSeek: ((seconds: number) => boolean) | null;
  /** A paragraph timestamp's link (the public page: the platform's moment, else its own anchor); null: a button or text. */
  stampHref?: ((start: number, index: number) => string) | null;
  /** Clicks on a stamp link: seek instead of following it where a player answers. */
  onStampClick?: (event: MouseEvent<HTMLAnchorElement>, seconds: number) => void;
  /**
   * In-place correction (the dashboard): paragraph `paragraph` is drawn by `editor`, every other one offers "Edit",
   * a link to `href(paragraph)` (followed before the page's scripts run) that calls `onEdit` once they do.
   */
  edit?: {
    paragraph: number;
    editor: ReactNode;
    onEdit: (paragraph: number) => void;
    href: (paragraph: number) => string;
  } | null;
}

export function ReadingView({
  segments,
  paragraphs,
  chapters,
  active,
  activeWord,
  moment,
  matches,
  currentMatch,
  only = null,
  onSeek,
  stampHref = null,
  onStampClick,
  edit = null,
}: ReadingViewProps) {
  const root = useRef<HTMLDivElement>(null);
  useRovingFocus(root, [paragraphs, only, edit?.paragraph]);

  // One listener for every cue and word: a click (not a text selection) plays from it.
  const onClick = useCallback(
    (event: MouseEvent<HTMLDivElement>) => {
      if (!onSeek || event.defaultPrevented) return;
      const target = event.target as HTMLElement;
      if (target.closest("a,button")) return;
      const selection = window.getSelection();
      if (selection && !selection.isCollapsed) return;
      const cue = target.closest<HTMLElement>(CUE);
      if (!cue) return;
      const index = Number(cue.id.slice(cue.id.lastIndexOf("-") + 1));
      const segment = segments[index];
      if (!segment) return;
      const word = target.closest<HTMLElement>("[data-w]");
      const timed = word ? segment.words?.[Number(word.dataset.w)] : undefined;
      onSeek(timed ? timed.start : segment.start);
    },
    [onSeek, segments],
  );

  // Matches grouped by segment once, so each paragraph gets only its own (and unchanged paragraphs skip rendering).
  const matchedSegments = new Set(matches.map((match) => match.segment));

  return (
    <div
      ref={root}
      className="reading"
      data-seek={onSeek ? "" : undefined}
      onClick={onClick}
      onKeyDown={rovingKeyDown}
      onFocus={rovingFocus}
      aria-label="Transcript (arrow keys move between paragraph timestamps)"
      role="region"
      data-testid="reading-view"
    >
      {paragraphs.map((paragraph, k) => {
        let hasMatch = false;
        let shown = only === null;
        for (let i = paragraph.from; i < paragraph.to && !(hasMatch && shown); i++) {
          if (matchedSegments.has(i)) hasMatch = true;
          if (only?.has(i)) shown = true;
        }
        if (!shown) return null;
        if (edit?.paragraph === k)
          return (
            <div key={`${k}-${paragraph.from}`} data-testid="paragraph-editor">
              {edit.editor}
            </div>
          );
        const inside = (index: number) => (index >= paragraph.from && index < paragraph.to ? index : -1);
        return (
          <Paragraph
            key={`${k}-${paragraph.from}`}
            paragraph={paragraph}
            segments={segments}
            chapters={chapters?.get(paragraph.from)}
            active={inside(active)}
            activeWord={inside(active) >= 0 ? activeWord : -1}
            moment={inside(moment)}
            matches={hasMatch ? matches : NO_MATCHES}
            currentMatch={hasMatch ? currentMatch : -1}
            seekable={onSeek !== null}
            onSeek={onSeek}
            stampHref={stampHref}
            onStampClick={onStampClick}
            index={k}
            onEdit={edit?.onEdit}
            editHref={edit?.href}
          />
        );
      })}
    </div>
  );
}

const Paragraph = memo(function Paragraph({
  paragraph,
  segments,
  chapters,
  active,
  activeWord,
  moment,
  matches,
  currentMatch,
  seekable,
  onSeek,
  stampHref,
  onStampClick,
  index,
  onEdit,
  editHref,
}: {
  paragraph: ReadingParagraph;
  segments: readonly TimedSegment[];
  chapters: string[] | undefined;
  active: number;
  activeWord: number;
  moment: number;
  matches: readonly SearchMatch[];
  currentMatch: number;
  seekable: boolean;
  onSeek: ((seconds: number) => boolean) | null;
  stampHref: ((start: number, index: number) => string) | null;
  onStampClick?: (event: MouseEvent<HTMLAnchorElement>, seconds: number) => void;
  index: number;
  onEdit?: (paragraph: number) => void;
  editHref?: (paragraph: number) => string;
}) {
  const clock = formatClock(paragraph.start);
  const stamp = (label: ReactNode, aria?: string): ReactNode =>
    stampHref ? (
      <a
        href={stampHref(paragraph.start, paragraph.from)}
        onClick={onStampClick ? (event) => onStampClick(event, paragraph.start) : undefined}
        aria-label={aria}
        data-roving
        rel="nofollow"
      >
        {label}
      </a>
    ) : seekable ? (
      <button type="button" onClick={() => onSeek?.(paragraph.start)} aria-label={aria} data-roving>
        {label}
      </button>
    ) : (
      <span>{label}</span>
    );
  const cues: ReactNode[] = [];
  for (let i = paragraph.from; i < paragraph.to; i++) {
    cues.push(
      <Cue
        key={i}
        index={i}
        segment={segments[i]}
        playing={i === active}
        word={i === active ? activeWord : -1}
        moment={i === moment}
        matches={matches}
        currentMatch={currentMatch}
      />,
      " ",
    );
  }
  return (
    <>
      {chapters?.map((title) => (
        <h3 key={title} data-testid="chapter">
          {title} {stamp(clock, `${title}: play from ${clock}`)}
        </h3>
      ))}
      <p data-testid="paragraph">
        <span className="stamp">
          {stamp(clock, seekable ? `Play from ${clock}` : undefined)}
          {onEdit && editHref && (
            // Utilities outrank the view's own styles (app/globals.css): a quiet text link beside the stamp.
            <a
              href={editHref(index)}
              onClick={(event) => {
                if (!plainClick(event)) return;
                event.preventDefault();
                onEdit(index);
              }}
              aria-label={`Edit the paragraph at ${clock}`}
              className="ml-3 font-sans text-xs text-stone-600 underline decoration-stone-400 hover:text-stone-900 hover:decoration-stone-900"
              data-roving
              data-testid="paragraph-edit"
            >
              Edit
            </a>
          )}
        </span>
        <SpeakerLabel name={paragraph.speaker} />
        {cues}
      </p>
    </>
  );
});

function Cue({
  index,
  segment,
  playing,
  word,
  moment,
  matches,
  currentMatch,
}: {
  index: number;
  segment: TimedSegment;
  playing: boolean;
  word: number;
  moment: boolean;
  matches: readonly SearchMatch[];
  currentMatch: number;
}) {
  const words = segment.words && segment.words.length > 0 ? segment.words : null;
  const hasMatch = matches.length > 0 && matches.some((match) => match.segment === index);
  let body: ReactNode;
  if (hasMatch) {
    body = <MarkedText text={segment.text} index={index} matches={matches} currentMatch={currentMatch} />;
  } else if (words) {
    body = words.map((w, k) => (
      <Fragment key={k}>
        {k > 0 && " "}
        <span data-w={k} data-playing={k === word || undefined} aria-current={k === word ? "true" : undefined}>
          {w.text}
        </span>
      </Fragment>
    ));
  } else body = segment.text;
  // The cue itself is marked while played only where its words are not timed.
  const cuePlaying = playing && (!words || hasMatch);
  return (
    <span
      id={momentAnchor(segment.start, index)}
      data-playing={cuePlaying || undefined}
      aria-current={cuePlaying ? "true" : undefined}
      data-moment={moment || undefined}
    >
      {body}
    </span>
  );
}
