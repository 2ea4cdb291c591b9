"use client";

import { useId, type FormEvent, type ReactNode } from "react";
import { filterCountLabel } from "@/lib/browser/transcript-view";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus";
import type { TranscriptReader } from "@/components/transcript/use-transcript-reader";

type Reader = Pick<
  TranscriptReader,
  "find" | "query" | "needle" | "search" | "matches" | "matched" | "currentMatch" | "countLabel" | "step"
>;

/**
 * Find in the transcript, as the reader's `find` says. "step" (the dashboard): the count ("3 of 12") and the
 * previous and next match beside the box; Enter and Shift+Enter step. "filter" (the public page): a GET form
 * (`?q=`), so that the search works without JavaScript; with it, the view filters as the reader types and
 * Search keeps the query in the address. `children`: the page's controls inside the form, after its button.
 */
export function FindBar({ reader, children }: { reader: Reader; children?: ReactNode }) {
  const stepId = useId();
  const step = reader.find === "step";
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step) return reader.step(1);
    const url = new URL(window.location.href);
    if (reader.needle) url.searchParams.set("q", reader.needle);
    else url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  };
  const id = step ? stepId : "transcript-search";
  return (
    <form
      role="search"
      method={step ? undefined : "get"}
      onSubmit={onSubmit}
      className={step ? "flex min-w-0 flex-1 basis-64 items-center gap-1" : "flex flex-wrap items-center gap-2"}
    >
      <label htmlFor={id} className="sr-only">
        Search this transcript
      </label>
      <input
        id={id}
        name={step ? undefined : "q"}
        type="search"
        value={reader.query}
        placeholder="Search this transcript"
        autoComplete={step ? "off" : undefined}
        onChange={(event) => reader.search(event.target.value)}
        onKeyDown={
          step
            ? (event) => {
                if (event.key === "Enter" && event.shiftKey) {
                  event.preventDefault();
                  reader.step(-1);
                }
              }
            : undefined
        }
        className={
          step
            ? `min-w-0 flex-1 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm placeholder:text-stone-500 max-sm:min-h-11 ${focusRing}`
            : `min-w-0 flex-1 basis-40 ${controlClass}`
        }
        data-testid="transcript-search"
      />
      {step ? (
        <>
          <span
            className="min-w-16 text-center text-xs text-stone-600 tabular-nums"
            aria-live="polite"
            data-testid="search-count"
          >
            {reader.countLabel}
          </span>
          <button
            type="button"
            className={buttonClass("secondary", "md", "max-sm:min-w-11")}
            onClick={() => reader.step(-1)}
            disabled={reader.matches.length === 0}
            aria-label="Previous match"
            data-testid="search-previous"
          >
            ↑
          </button>
          <button
            type="submit"
            className={buttonClass("secondary", "md", "max-sm:min-w-11")}
            disabled={reader.matches.length === 0}
            aria-label="Next match"
            data-testid="search-next"
          >
            ↓
          </button>
        </>
      ) : (
        <button type="submit" className={buttonClass()}>
          Search
        </button>
      )}
      {children}
      {!step && reader.needle && (
        <p className="w-full text-sm text-stone-600" aria-live="polite" data-testid="search-count">
          {filterCountLabel(reader.matches.length, reader.matched.size, reader.needle)}
        </p>
      )}
    </form>
  );
}
