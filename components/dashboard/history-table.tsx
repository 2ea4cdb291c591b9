"use client";

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import {
  DEFAULT_HISTORY_PARAMS,
  fetchTranscriptions,
  hasHistoryFilters,
  historySearch,
  parseHistoryParams,
  TRANSCRIPTIONS_KEY,
  type HistoryParams,
  type TranscriptionEntry,
} from "@/lib/browser/transcripts";
import { Notice } from "@/components/ui/notice";
import { useTypedBeforeHydration } from "@/components/ui/use-hydrated";
import { HistoryMoments, useHistoryMoments } from "@/components/dashboard/history-moments";
import { HistoryFilters } from "@/components/dashboard/history/history-filters";
import { HistoryCardsView, HistoryTableView } from "@/components/dashboard/history/history-list";
import { Pagination } from "@/components/dashboard/history/pagination";
import { ExportNotesButton } from "@/components/dashboard/history/export-notes-button";
import { historyExportSelection } from "@/lib/browser/exports";

const SEARCH_DEBOUNCE_MS = 300;
/** The table from this width on; cards below it. */
const WIDE_QUERY = "(min-width: 768px)";
/** While a row is in progress, the list is asked for again this often. */
const IN_PROGRESS_POLL_MS = 5000;

/** The caller's history. Every bit of view state (search, filters, sort, page) lives in the address. */
export function HistoryTable() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const searchKey = searchParams.toString();
  const params = useMemo(() => parseHistoryParams(new URLSearchParams(searchKey)), [searchKey]);

  const navigate = (next: HistoryParams) => {
    const search = historySearch(next);
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  const update = (change: Partial<HistoryParams>) => navigate({ ...params, page: 1, ...change });

  // The search box: typed text is debounced into the address; an address change from elsewhere
  // (Clear filters, a reload) is copied back into the box. The address catching up with what the box sent earlier
  // (a slow navigation, often the first one after text typed before hydration) is not from elsewhere: copying it
  // back would take away what was typed since.
  const [draft, setDraft] = useState(params.q);
  const [seenQ, setSeenQ] = useState(params.q);
  const [sentQ, setSentQ] = useState<string | null>(null);
  if (seenQ !== params.q) {
    setSeenQ(params.q);
    if (draft.trim() !== params.q && params.q !== sentQ) setDraft(params.q);
  }
  useEffect(() => {
    const current = parseHistoryParams(new URLSearchParams(searchKey));
    if (draft.trim() === current.q) return;
    const timer = setTimeout(() => {
      setSentQ(draft.trim());
      const search = historySearch({ ...current, q: draft, page: 1 });
      router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, searchKey, pathname, router]);

  const list = useQuery({
    queryKey: [...TRANSCRIPTIONS_KEY, historySearch(params)],
    queryFn: () => fetchTranscriptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.transcriptions.some((entry) => entry.status === "in_progress") ? IN_PROGRESS_POLL_MS : false,
  });

  const filtered = hasHistoryFilters(params);
  const moments = useHistoryMoments(params.q, params.platform);
  const otherFilters = params.platform !== null || params.state !== null;
  const wide = useWideScreen();
  const queryClient = useQueryClient();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(searchBox, draft, setDraft);
  const remove = async (entry: TranscriptionEntry) => {
    setDeleteError(null);
    try {
      await apiFetch(`/v1/me/transcriptions/${encodeURIComponent(entry.id)}`, { method: "DELETE" });
      await queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
      await queryClient.invalidateQueries({ queryKey: ["moments"] });
      // The row and its buttons are gone: keep the keyboard in the list's controls.
      searchBox.current?.focus();
    } catch (error) {
      setDeleteError(error instanceof Error ? error.message : "Could not delete.");
    }
  };

  const listProps = {
    params,
    busy: list.isFetching,
    stale: list.isPlaceholderData,
    onSort: update,
    onDelete: remove,
    onFirstPage: () => navigate({ ...params, page: 1 }),
  };

  return (
    <div className="flex flex-col gap-4">
      <HistoryFilters
        draft={draft}
        onDraft={setDraft}
        params={params}
        onChange={update}
        onClear={() => {
          setDraft("");
          navigate({ ...DEFAULT_HISTORY_PARAMS, sort: params.sort, order: params.order });
        }}
        filtered={filtered}
        searchRef={searchBox}
      />

      <HistoryMoments {...moments} onSuggest={setDraft} />
      {moments.results && list.data && list.data.total > 0 && (
        <h2 className="text-sm font-medium text-stone-700" data-testid="history-list-title">
          Titles, channels and video IDs
        </h2>
      )}

      {list.isPending ? (
        <p className="text-sm text-stone-600">Loading…</p>
      ) : list.isError ? (
        <Notice tone="error">{list.error.message}</Notice>
      ) : list.data.total === 0 ? (
        <div
          className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-10 text-center text-sm text-stone-600"
          data-testid="history-empty"
        >
          {moments.results ? (
            // The moments above matched what was said; say so rather than "nothing matches" under them.
            <p>
              No title, channel or video ID contains “{moments.query}”{otherFilters ? " with these filters" : ""}: it
              was found only in what was said, above.
            </p>
          ) : otherFilters ? (
            <p>No transcriptions match these filters.</p>
          ) : filtered ? (
            // Only words were searched: no filter to blame, and what was said has had its answer above.
            <p>
              No title, channel or video ID contains “{moments.query}”{moments.nothingInReach ? " either" : ""}.
            </p>
          ) : (
            <p>
              No transcriptions yet. The{" "}
              <Link href="/dashboard" className="underline">
                Transcribe page
              </Link>{" "}
              has a sample link to try: what you transcribe shows up here.
            </p>
          )}
        </div>
      ) : (
        <>
          {deleteError && (
            <Notice tone="error" data-testid="history-delete-error">
              {deleteError}
            </Notice>
          )}
          {wide ? (
            <HistoryTableView entries={list.data.transcriptions} {...listProps} />
          ) : (
            <HistoryCardsView entries={list.data.transcriptions} {...listProps} />
          )}
          <Pagination
            params={params}
            total={list.data.total}
            shown={list.data.transcriptions.length}
            onPage={(page) => navigate({ ...params, page })}
          />
          <ExportNotesButton
            selection={historyExportSelection(params)}
            label={
              params.q.trim() !== "" || params.platform !== null
                ? "Export these as notes (.zip)"
                : "Export all as notes (.zip)"
            }
            testId="history-export-notes"
          />
        </>
      )}
    </div>
  );
}

/** Wide screens get the table; phones get cards. Rendered on the client only (the list is fetched there). */
function useWideScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(WIDE_QUERY);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(WIDE_QUERY).matches,
    () => true,
  );
}
