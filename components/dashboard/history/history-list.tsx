"use client";

import type { HistoryParams, HistorySort, TranscriptionEntry } from "@/lib/browser/transcripts";
import { focusRing } from "@/components/ui/focus";
import { Actions } from "@/components/dashboard/history/history-actions";
import { Created, Duration, StateCell, TitleCell } from "@/components/dashboard/history/history-cells";

interface ListProps {
  entries: TranscriptionEntry[];
  params: HistoryParams;
  busy: boolean;
  stale: boolean;
  onSort: (change: Partial<HistoryParams>) => void;
  onDelete: (entry: TranscriptionEntry) => Promise<void>;
  onFirstPage: () => void;
}

/** Wide screens: the history as a table with sortable columns. */
export function HistoryTableView({ entries, params, busy, stale, onSort, onDelete, onFirstPage }: ListProps) {
  return (
    <div className="rounded-lg border border-stone-200 bg-white">
      <table className="w-full table-fixed text-left text-sm" aria-busy={busy} data-testid="history-table">
        <caption className="sr-only">Your transcriptions</caption>
        <colgroup>
          <col />
          <col className="w-36" />
          {/* "12 min 34 s" on one line, with the cell's padding. */}
          <col className="w-32" />
          <col className="w-56" />
          <col className="w-52" />
        </colgroup>
        <thead className="border-b border-stone-200 bg-stone-50 text-xs tracking-wide text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Transcript
            </th>
            <SortHeader column="created_at" label="Created" params={params} onSort={onSort} />
            <SortHeader column="total_seconds" label="Duration" params={params} onSort={onSort} numeric />
            <th scope="col" className="px-4 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={`divide-y divide-stone-100 ${stale ? "opacity-60" : ""}`}>
          {entries.map((entry) => (
            <tr key={entry.id} className="align-top hover:bg-stone-50" data-testid="history-row">
              <td className="px-4 py-3">
                <TitleCell entry={entry} />
              </td>
              <td className="px-4 py-3 text-stone-600">
                <Created entry={entry} />
              </td>
              <td className="px-4 py-3 text-right tabular-nums">
                <Duration entry={entry} />
              </td>
              <td className="px-4 py-3">
                <StateCell entry={entry} />
              </td>
              <td className="px-4 py-3">
                <Actions entry={entry} onDelete={onDelete} />
              </td>
            </tr>
          ))}
          {entries.length === 0 && (
            <tr>
              <td colSpan={5} className="px-4 py-6 text-center text-stone-600">
                <BackToFirstPage onClick={onFirstPage} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: the history as cards, with sort buttons above them. */
export function HistoryCardsView({ entries, params, busy, stale, onSort, onDelete, onFirstPage }: ListProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-stone-600">Sort:</span>
        <SortButton column="created_at" label="Created" params={params} onSort={onSort} />
        <SortButton column="total_seconds" label="Duration" params={params} onSort={onSort} />
      </div>
      <ul
        aria-label="Your transcriptions"
        aria-busy={busy}
        className={`flex flex-col gap-3 ${stale ? "opacity-60" : ""}`}
        data-testid="history-cards"
      >
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-3 text-sm"
            data-testid="history-row"
          >
            <TitleCell entry={entry} />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-stone-600">
              <Created entry={entry} />
              <span aria-hidden="true">·</span>
              <span className="tabular-nums">
                <Duration entry={entry} />
              </span>
            </div>
            <StateCell entry={entry} />
            <Actions entry={entry} onDelete={onDelete} />
          </li>
        ))}
      </ul>
      {entries.length === 0 && (
        <p className="text-center text-sm text-stone-600">
          <BackToFirstPage onClick={onFirstPage} />
        </p>
      )}
    </div>
  );
}

function BackToFirstPage({ onClick }: { onClick: () => void }) {
  return (
    <>
      Nothing on this page.{" "}
      <button type="button" onClick={onClick} className={`underline ${focusRing}`}>
        Back to the first page
      </button>
    </>
  );
}

function SortHeader({
  column,
  label,
  params,
  onSort,
  numeric = false,
}: {
  column: HistorySort;
  label: string;
  params: HistoryParams;
  onSort: ListProps["onSort"];
  numeric?: boolean;
}) {
  const active = params.sort === column;
  return (
    <th
      scope="col"
      aria-sort={active ? (params.order === "asc" ? "ascending" : "descending") : undefined}
      className={`px-4 py-2 font-medium ${numeric ? "text-right" : ""}`}
    >
      <SortButton column={column} label={label} params={params} onSort={onSort} bare />
    </th>
  );
}

function SortButton({
  column,
  label,
  params,
  onSort,
  bare = false,
}: {
  column: HistorySort;
  label: string;
  params: HistoryParams;
  onSort: ListProps["onSort"];
  bare?: boolean;
}) {
  const active = params.sort === column;
  const nextOrder = active && params.order === "desc" ? "asc" : "desc";
  return (
    <button
      type="button"
      onClick={() => onSort({ sort: column, order: active ? nextOrder : "desc" })}
      aria-pressed={bare ? undefined : active}
      className={
        bare
          ? `inline-flex items-center gap-1 rounded uppercase hover:text-stone-900 ${active ? "text-stone-900" : ""} ${focusRing}`
          : `inline-flex items-center gap-1 rounded-md border px-2 py-1 max-sm:min-h-11 ${active ? "border-stone-900 text-stone-900" : "border-stone-300 text-stone-600"} ${focusRing}`
      }
      data-testid={`sort-${column}`}
    >
      {label}
      <span aria-hidden="true" className={active ? "" : "text-stone-500"}>
        {active && params.order === "asc" ? "▲" : "▼"}
      </span>
    </button>
  );
}
