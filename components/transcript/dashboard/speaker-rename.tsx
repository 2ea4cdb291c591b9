"use client";

import { useState } from "react";
import type { Transcript } from "@/lib/browser/transcripts";
import { renameSpeaker } from "@/lib/browser/transcript-edits";
import { MAX_SPEAKER_CHARS, speakersOf } from "@/lib/formats/speakers";
import { Button } from "@/components/ui/button";

/**
 * Rename a speaker the transcript's source names, everywhere in it: the author's own correction (a new
 * revision, like any save). Shown only where the transcript names speakers; off while there are unsaved edits,
 * which the rename's answer would replace.
 */
export function SpeakerRename({
  transcript,
  disabled,
  onSaved,
}: {
  transcript: Transcript;
  disabled: boolean;
  onSaved: (saved: Transcript) => void;
}) {
  const speakers = speakersOf(transcript.segments ?? []);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (speakers.length === 0) return null;
  const chosen = speakers.includes(from) ? from : speakers[0]!;

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      onSaved(await renameSpeaker(transcript.id, chosen, to));
      setTo("");
    } catch (e) {
      setError(e instanceof Error ? e.message : "The speaker was not renamed.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      data-testid="speaker-rename"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="flex flex-col gap-1">
        <span className="text-xs text-stone-600">Speaker</span>
        <select value={chosen} onChange={(e) => setFrom(e.target.value)} className="rounded border px-2 py-1">
          {speakers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs text-stone-600">New name</span>
        <input
          value={to}
          onChange={(e) => setTo(e.target.value)}
          maxLength={MAX_SPEAKER_CHARS}
          className="rounded border px-2 py-1"
          data-testid="speaker-rename-to"
        />
      </label>
      <Button type="submit" disabled={disabled || busy || to.trim() === ""}>
        {busy ? "Renaming…" : "Rename everywhere"}
      </Button>
      {error && (
        <p role="alert" className="w-full text-red-800">
          {error}
        </p>
      )}
    </form>
  );
}
