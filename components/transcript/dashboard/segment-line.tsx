"use client";

import { memo, type ReactNode } from "react";
import { formatClock, type Transcript } from "@/lib/browser/transcripts";
import type { SearchMatch } from "@/lib/browser/transcript-view";
import { focusRing } from "@/components/ui/focus";
import { MarkedText } from "@/components/transcript/marked-text";

type Segment = NonNullable<Transcript["segments"]>[number];

const stampClass = `shrink-0 rounded px-1.5 py-0.5 font-mono text-xs text-stone-600 tabular-nums hover:bg-stone-100 hover:text-stone-900 max-sm:min-h-11 max-sm:min-w-11 ${focusRing}`;
const chapterClock = "font-mono text-xs font-normal text-stone-600";

/**
 * One line of the readable transcript (with the chapter titles that start at it). Its timestamp seeks the
 * player, else opens the source; timestamps are one Tab stop for the whole list (lib/browser/roving-focus.ts).
 */
export const SegmentLine = memo(function SegmentLine({
  index,
  segment,
  chapters,
  active,
  matches,
  currentMatch,
  hasMatch,
  onSeek,
  sourceLink,
}: {
  index: number;
  segment: Segment;
  chapters: string[] | undefined;
  active: boolean;
  matches: SearchMatch[];
  currentMatch: number;
  hasMatch: boolean;
  onSeek: ((seconds: number) => boolean) | null;
  sourceLink: string | null;
}) {
  const clock = formatClock(segment.start);
  const stamp: ReactNode = onSeek ? (
    <button
      type="button"
      onClick={() => onSeek(segment.start)}
      className={stampClass}
      aria-label={`Play from ${clock}`}
      data-roving
    >
      {clock}
    </button>
  ) : sourceLink ? (
    <a
      href={sourceLink}
      target="_blank"
      rel="noopener noreferrer"
      className={stampClass}
      aria-label={`${clock}, open the source`}
      data-roving
    >
      {clock}
    </a>
  ) : (
    <span className="shrink-0 px-1.5 py-0.5 font-mono text-xs text-stone-600 tabular-nums">{clock}</span>
  );
  return (
    <>
      {chapters?.map((title) => (
        <li key={title} className="bg-stone-50 px-4 pt-3 pb-1" data-testid="chapter">
          <h3 className="text-sm font-semibold text-stone-900">
            {onSeek ? (
              <button
                type="button"
                onClick={() => onSeek(segment.start)}
                className={`rounded text-left hover:underline max-sm:min-h-11 ${focusRing}`}
                data-roving
              >
                {title} <span className={chapterClock}>{clock}</span>
              </button>
            ) : (
              <>
                {title} <span className={chapterClock}>{clock}</span>
              </>
            )}
          </h3>
        </li>
      ))}
      <li
        className={`flex items-baseline gap-3 px-4 py-2 max-sm:items-center max-sm:py-0.5 ${active ? "bg-sky-50 shadow-[inset_3px_0_0_0] shadow-sky-600" : ""}`}
        aria-current={active ? "true" : undefined}
        data-index={index}
        data-testid="segment"
      >
        {stamp}
        <span className="min-w-0 break-words text-stone-800" data-testid="segment-text">
          {hasMatch ? (
            <MarkedText
              text={segment.text}
              index={index}
              matches={matches}
              currentMatch={currentMatch}
              markClass={(current) =>
                `rounded px-0.5 text-stone-900 ${current ? "bg-amber-400 ring-2 ring-amber-600 dark:bg-amber-100" : "bg-amber-200"}`
              }
            />
          ) : (
            segment.text
          )}
        </span>
      </li>
    </>
  );
});
