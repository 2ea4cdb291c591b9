"use client";

import { useId } from "react";
import { useMutation } from "@tanstack/react-query";
import {
  CLOSENESS_CHOICES,
  previewNewAlert,
  previewSentence,
  type AlertMatching,
  type AlertRequest,
} from "@/lib/browser/alerts";
import { ErrorText } from "@/components/ui/notice";
import { buttonClass } from "@/components/ui/button";

const control = "rounded-md border border-stone-300 px-3 py-2 text-sm";

/** How the alert matches: by its words (the search's syntax) or by meaning, and then how close, in words. */
export function AlertMatchingFields({
  matching,
  onChange,
  disabled,
}: {
  matching: AlertMatching;
  onChange: (matching: AlertMatching) => void;
  disabled: boolean;
}) {
  const closenessId = useId();
  const name = useId();
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-3 text-sm">
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">Match by</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={name}
            checked={matching.mode === "words"}
            disabled={disabled}
            onChange={() => onChange({ mode: "words" })}
          />
          By its words
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={name}
            checked={matching.mode === "meaning"}
            disabled={disabled}
            onChange={() => onChange({ mode: "meaning", closeness: "very_close" })}
            data-testid="alert-mode-meaning"
          />
          By meaning
        </label>
      </fieldset>
      {matching.mode === "meaning" ? (
        <span className="flex items-center gap-2">
          <label htmlFor={closenessId}>At least</label>
          <select
            id={closenessId}
            value={matching.closeness}
            disabled={disabled}
            onChange={(event) =>
              onChange({ mode: "meaning", closeness: event.target.value as typeof matching.closeness })
            }
            className={control}
            data-testid="alert-closeness"
          >
            {CLOSENESS_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          <span className="text-stone-600">in meaning</span>
        </span>
      ) : null}
    </div>
  );
}

/** Tries the alert the form describes on the last 30 days' transcripts, before it is saved. */
export function AlertPreview({ request, disabled }: { request: AlertRequest; disabled: boolean }) {
  const preview = useMutation({ mutationFn: previewNewAlert });
  // A preview of what the form said before it changed is not this alert's.
  const shown = preview.data && JSON.stringify(preview.variables) === JSON.stringify(request) ? preview.data : null;
  return (
    <div className="flex min-w-0 flex-col gap-2 text-sm">
      <button
        type="button"
        className={`${buttonClass()} self-start`}
        disabled={disabled || request.query.trim() === "" || preview.isPending}
        onClick={() => preview.mutate(request)}
      >
        {preview.isPending ? "Trying…" : "Try it on the last 30 days"}
      </button>
      <ErrorText error={preview.error} />
      {shown ? (
        <div data-testid="alert-preview">
          <p>{previewSentence(shown)}</p>
          {shown.matches.length > 0 ? (
            <ul className="mt-1 list-disc pl-5 text-stone-700">
              {shown.matches.slice(0, 5).map((m) => (
                <li key={m.transcript_id} className="break-words">
                  {m.title ?? m.transcript_id}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
