"use client";

import dynamic from "next/dynamic";

/** The viewer's code (and the text renderer it copies with) loads when a transcript is shown, not with the empty Transcribe page. */
export const TranscriptViewer = dynamic(
  () => import("@/components/transcript/dashboard/transcript-viewer").then((module) => module.TranscriptViewer),
  {
    loading: () => <p className="text-sm text-stone-600">Loading the transcript…</p>,
  },
);
