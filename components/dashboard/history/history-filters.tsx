"use client";

import { useId, type Ref } from "react";
import {
  HISTORY_PLATFORM_OPTIONS,
  HISTORY_STATES,
  PLATFORM_LABELS,
  STATE_LABELS,
  type HistoryParams,
} from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { useHydrated } from "@/components/ui/use-hydrated";

/** The search box and the platform and state filters above the history. */
export function HistoryFilters({
  draft,
  onDraft,
  params,
  onChange,
  onClear,
  filtered,
  searchRef,
}: {
  draft: string;
  onDraft: (text: string) => void;
  params: HistoryParams;
  onChange: (change: Partial<HistoryParams>) => void;
  onClear: () => void;
  filtered: boolean;
  searchRef: Ref<HTMLInputElement>;
}) {
  const ids = { q: useId(), platform: useId(), state: useId() };
  // The search box takes typing at once (kept on hydration: HistoryTable); the filters wait for their handlers.
  const hydrated = useHydrated();
  return (
    <div role="search" className="flex flex-wrap items-end gap-3">
      <Field label="Search titles, channels, video IDs and what was said" htmlFor={ids.q} className="flex-[1_1_14rem]">
        <Input
          ref={searchRef}
          id={ids.q}
          type="search"
          value={draft}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. interview, dQw4w9, or words that were said"
          onChange={(event) => onDraft(event.target.value)}
          data-testid="history-search"
        />
      </Field>
      <Field label="Platform" htmlFor={ids.platform}>
        <Select
          id={ids.platform}
          value={params.platform ?? ""}
          disabled={!hydrated}
          onChange={(event) => onChange({ platform: (event.target.value || null) as HistoryParams["platform"] })}
          data-testid="history-platform"
        >
          <option value="">All platforms</option>
          {HISTORY_PLATFORM_OPTIONS.map((platform) => (
            <option key={platform} value={platform}>
              {PLATFORM_LABELS[platform]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="State" htmlFor={ids.state}>
        <Select
          id={ids.state}
          value={params.state ?? ""}
          disabled={!hydrated}
          onChange={(event) => onChange({ state: (event.target.value || null) as HistoryParams["state"] })}
          data-testid="history-state"
        >
          <option value="">All states</option>
          {HISTORY_STATES.map((state) => (
            <option key={state} value={state}>
              {STATE_LABELS[state]}
            </option>
          ))}
        </Select>
      </Field>
      {filtered && (
        <button type="button" onClick={onClear} disabled={!hydrated} className={buttonClass("ghost", "lg")}>
          Clear filters
        </button>
      )}
    </div>
  );
}
