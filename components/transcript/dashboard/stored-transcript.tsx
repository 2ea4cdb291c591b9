"use client";

import { useQuery } from "@tanstack/react-query";
import { fetchTranscript, transcriptKey, type Transcript } from "@/lib/browser/transcripts";
import type { EditTarget } from "@/lib/browser/transcript-address";
import { TranscriptViewer } from "@/components/transcript/dashboard/lazy-transcript-viewer";

/**
 * A transcript from the caller's history by its id (`/dashboard?transcript=<id>`; History and an import's
 * items link here), opened at `&t=<seconds>` when a search result links to a moment, or with its find box
 * holding `&find=<text>` when History links to every moment of it, in an editor with `&edit=`, and with what the
 * Publish form came back with (lib/browser/transcript-address.ts). The page renders it on the server (`initial`);
 * otherwise it is fetched.
 */
export function StoredTranscript({
  id,
  initial = null,
  startAt = null,
  find = "",
  edit = null,
  published = null,
  publishFailure = null,
}: {
  id: string;
  initial?: Transcript | null;
  startAt?: number | null;
  find?: string;
  edit?: EditTarget;
  published?: string | null;
  publishFailure?: string | null;
}) {
  const transcript = useQuery({
    queryKey: transcriptKey(id, "json"),
    queryFn: () => fetchTranscript(id, "json"),
    initialData: initial?.id === id ? initial : undefined,
    staleTime: Infinity,
  });
  if (transcript.isPending) return <p className="text-sm text-stone-600">Loading the transcript…</p>;
  if (transcript.isError) {
    return (
      <p
        role="alert"
        className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        data-testid="transcribe-error"
      >
        {transcript.error.message}
      </p>
    );
  }
  return (
    <TranscriptViewer
      key={transcript.data.id}
      transcript={transcript.data}
      startAt={startAt}
      find={find}
      edit={edit}
      published={published}
      publishFailure={publishFailure}
    />
  );
}
