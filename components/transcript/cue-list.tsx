"use client";

import { useRef, type ReactNode } from "react";
import { rovingFocus, rovingKeyDown, useRovingFocus } from "@/lib/browser/roving-focus";
import type { TimedSegment } from "@/lib/formats/paragraphs";

/**
 * The cue list: one line per caption cue, its timestamps one Tab stop (lib/browser/roving-focus.ts). Each page
 * draws its own line (`line`: the dashboard's SegmentLine, the public page's link), which carries
 * `data-index` so that a moment or the line being played can be found in it; `only`: the lines a filtering
 * search shows (null: all).
 */
export function CueList({
  segments,
  only = null,
  seekable,
  line,
  className,
  testId,
}: {
  segments: readonly TimedSegment[];
  only?: ReadonlySet<number> | null;
  seekable: boolean;
  line: (segment: TimedSegment, index: number) => ReactNode;
  className: string;
  testId: string;
}) {
  const list = useRef<HTMLOListElement>(null);
  useRovingFocus(list, [segments, only, seekable]);
  return (
    <ol
      ref={list}
      aria-label="Transcript lines (arrow keys move between timestamps)"
      onKeyDown={rovingKeyDown}
      onFocus={rovingFocus}
      className={className}
      data-testid={testId}
    >
      {segments.map((segment, index) => (only === null || only.has(index) ? line(segment, index) : null))}
    </ol>
  );
}
