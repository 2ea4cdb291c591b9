"use client";

import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { PublishButton } from "@/components/dashboard/publish-button";
import { HistoryMoments } from "@/components/dashboard/history-moments";
import {
  canonicalSourceUrl,
  DEFAULT_HISTORY_PARAMS,
  downloadHref,
  fetchTranscriptions,
  formatClock,
  hasHistoryFilters,
  HISTORY_PAGE_SIZE,
  HISTORY_PLATFORM_OPTIONS,
  HISTORY_STATES,
  historySearch,
  parseHistoryParams,
  PLATFORM_LABELS,
  platformLabel,
  STATE_LABELS,
  transcribeHref,
  TRANSCRIPTIONS_KEY,
  watchJobHref,
  type HistoryParams,
  type HistorySort,
  type TranscriptionEntry,
} from "@/lib/client/transcripts";

const SEARCH_DEBOUNCE_MS = 300;
/** The table from this width on; cards below it. */
const WIDE_QUERY = "(min-width: 768px)";
/** While a row is in progress, the list is asked for again this often. */
const IN_PROGRESS_POLL_MS = 5000;
const controlClass =
  "rounded-md border border-stone-300 bg-white px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-stone-400";

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
  // (Clear filters, a reload) is copied back into the box.
  const [draft, setDraft] = useState(params.q);
  const [seenQ, setSeenQ] = useState(params.q);
  if (seenQ !== params.q) {
    setSeenQ(params.q);
    if (draft.trim() !== params.q) setDraft(params.q);
  }
  useEffect(() => {
    const current = parseHistoryParams(new URLSearchParams(searchKey));
    if (draft.trim() === current.q) return;
    const timer = setTimeout(() => {
      const search = historySearch({ ...current, q: draft, page: 1 });
      router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, searchKey, pathname, router]);

  const list = useQuery({
    queryKey: [...TRANSCRIPTIONS_KEY, historySearch(params)],
    queryFn: () => fetchTranscriptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.transcriptions.some((entry) => entry.status === "in_progress") ? IN_PROGRESS_POLL_MS : false),
  });

  const ids = { q: useId(), platform: useId(), state: useId() };
  const filtered = hasHistoryFilters(params);
  const wide = useWideScreen();
  const queryClient = useQueryClient();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
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

  return (
    <div className="flex flex-col gap-4">
      <div role="search" className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-1 text-sm">
          <label htmlFor={ids.q} className="font-medium">
            Search by title or video ID
          </label>
          <input
            ref={searchBox}
            id={ids.q}
            type="search"
            value={draft}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. interview, dQw4w9, or words that were said"
            onChange={(event) => setDraft(event.target.value)}
            className={controlClass}
            data-testid="history-search"
          />
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={ids.platform} className="font-medium">
            Platform
          </label>
          <select
            id={ids.platform}
            value={params.platform ?? ""}
            onChange={(event) => update({ platform: (event.target.value || null) as HistoryParams["platform"] })}
            className={controlClass}
            data-testid="history-platform"
          >
            <option value="">All platforms</option>
            {HISTORY_PLATFORM_OPTIONS.map((platform) => (
              <option key={platform} value={platform}>
                {PLATFORM_LABELS[platform]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={ids.state} className="font-medium">
            State
          </label>
          <select
            id={ids.state}
            value={params.state ?? ""}
            onChange={(event) => update({ state: (event.target.value || null) as HistoryParams["state"] })}
            className={controlClass}
            data-testid="history-state"
          >
            <option value="">All states</option>
            {HISTORY_STATES.map((state) => (
              <option key={state} value={state}>
                {STATE_LABELS[state]}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            onClick={() => {
              setDraft("");
              navigate({ ...DEFAULT_HISTORY_PARAMS, sort: params.sort, order: params.order });
            }}
            className="rounded-md px-3 py-2 text-sm text-stone-600 underline decoration-stone-300 hover:text-stone-900"
          >
            Clear filters
          </button>
        )}
      </div>

      <HistoryMoments q={params.q} platform={params.platform} />

      {list.isPending ? (
        <p className="text-sm text-stone-500">Loading…</p>
      ) : list.isError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {list.error.message}
        </p>
      ) : list.data.total === 0 ? (
        <div className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-10 text-center text-sm text-stone-600" data-testid="history-empty">
          {filtered ? (
            <p>No transcriptions match these filters.</p>
          ) : (
            <p>
              No transcriptions yet. The <Link href="/dashboard" className="underline">Transcribe page</Link> has a sample link to try: what you
              transcribe shows up here.
            </p>
          )}
        </div>
      ) : (
        <>
          {deleteError && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="history-delete-error">
              {deleteError}
            </p>
          )}
          {wide ? (
            <div className="rounded-lg border border-stone-200 bg-white">
              <table className="w-full table-fixed text-left text-sm" aria-busy={list.isFetching} data-testid="history-table">
                <caption className="sr-only">Your transcriptions</caption>
                <colgroup>
                  <col />
                  <col className="w-36" />
                  <col className="w-28" />
                  <col className="w-56" />
                  <col className="w-52" />
                </colgroup>
                <thead className="border-b border-stone-200 bg-stone-50 text-xs tracking-wide text-stone-600 uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">Transcript</th>
                    <SortHeader column="created_at" label="Created" params={params} onSort={update} />
                    <SortHeader column="total_seconds" label="Duration" params={params} onSort={update} numeric />
                    <th scope="col" className="px-4 py-2 font-medium">State</th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className={`divide-y divide-stone-100 ${list.isPlaceholderData ? "opacity-60" : ""}`}>
                  {list.data.transcriptions.map((entry) => (
                    <tr key={entry.id} className="align-top hover:bg-stone-50" data-testid="history-row">
                      <td className="px-4 py-3"><TitleCell entry={entry} /></td>
                      <td className="px-4 py-3 text-stone-600"><Created entry={entry} /></td>
                      <td className="px-4 py-3 text-right tabular-nums"><Duration entry={entry} /></td>
                      <td className="px-4 py-3"><StateCell entry={entry} /></td>
                      <td className="px-4 py-3"><Actions entry={entry} onDelete={remove} /></td>
                    </tr>
                  ))}
                  {list.data.transcriptions.length === 0 && (
                    <tr>
                      <td colSpan={5} className="px-4 py-6 text-center text-stone-600">
                        <BackToFirstPage onClick={() => navigate({ ...params, page: 1 })} />
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          ) : (
            <div className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="text-stone-600">Sort:</span>
                <SortButton column="created_at" label="Created" params={params} onSort={update} />
                <SortButton column="total_seconds" label="Duration" params={params} onSort={update} />
              </div>
              <ul aria-label="Your transcriptions" aria-busy={list.isFetching} className={`flex flex-col gap-3 ${list.isPlaceholderData ? "opacity-60" : ""}`} data-testid="history-cards">
                {list.data.transcriptions.map((entry) => (
                  <li key={entry.id} className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-3 text-sm" data-testid="history-row">
                    <TitleCell entry={entry} />
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-stone-600">
                      <Created entry={entry} />
                      <span aria-hidden="true">·</span>
                      <span className="tabular-nums"><Duration entry={entry} /></span>
                    </div>
                    <StateCell entry={entry} />
                    <Actions entry={entry} onDelete={remove} />
                  </li>
                ))}
              </ul>
              {list.data.transcriptions.length === 0 && (
                <p className="text-center text-sm text-stone-600">
                  <BackToFirstPage onClick={() => navigate({ ...params, page: 1 })} />
                </p>
              )}
            </div>
          )}
          <Pagination params={params} total={list.data.total} shown={list.data.transcriptions.length} onPage={(page) => navigate({ ...params, page })} />
        </>
      )}
    </div>
  );
}

function BackToFirstPage({ onClick }: { onClick: () => void }) {
  return (
    <>
      Nothing on this page.{" "}
      <button type="button" onClick={onClick} className="underline">
        Back to the first page
      </button>
    </>
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
  onSort: (change: Partial<HistoryParams>) => void;
  numeric?: boolean;
}) {
  const active = params.sort === column;
  return (
    <th scope="col" aria-sort={active ? (params.order === "asc" ? "ascending" : "descending") : undefined} className={`px-4 py-2 font-medium ${numeric ? "text-right" : ""}`}>
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
  onSort: (change: Partial<HistoryParams>) => void;
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
          ? `inline-flex items-center gap-1 uppercase hover:text-stone-900 ${active ? "text-stone-900" : ""}`
          : `inline-flex items-center gap-1 rounded-md border px-2 py-1 ${active ? "border-stone-900 text-stone-900" : "border-stone-300 text-stone-600"}`
      }
      data-testid={`sort-${column}`}
    >
      {label}
      <span aria-hidden="true" className={active ? "" : "text-stone-400"}>
        {active && params.order === "asc" ? "▲" : "▼"}
      </span>
    </button>
  );
}

/** Where a row opens: captions ask the Transcribe page again (free); uploads and podcasts show their finished job. */
function openHref(entry: TranscriptionEntry): string | null {
  const canonical = canonicalSourceUrl(entry.source, entry.video_id);
  if (entry.status === "error") return null;
  if (canonical && entry.status === "done") return transcribeHref(canonical, entry.lang);
  return entry.job_id && entry.status === "done" ? watchJobHref(entry.job_id) : null;
}

/** The title the platform gave, an upload's file name; never a storage path. */
function displayTitle(entry: TranscriptionEntry): string {
  const title = entry.title?.trim();
  if (title) return title;
  if (entry.source === "upload") return "Uploaded file";
  if (entry.source === "podcast") return "Podcast episode";
  return `${platformLabel(entry.source)} video`;
}

function TitleCell({ entry }: { entry: TranscriptionEntry }) {
  const href = openHref(entry);
  const title = displayTitle(entry);
  // Uploads and podcasts are named by their title alone: their ids are storage keys and hashes.
  const showId = entry.source !== "upload" && entry.source !== "podcast";
  return (
    <div className="flex min-w-0 items-start gap-3">
      <Thumbnail entry={entry} />
      <div className="flex min-w-0 flex-col gap-0.5">
        {href ? (
          <Link href={href} className="font-medium break-words underline decoration-stone-300 hover:decoration-stone-900" data-testid="history-video-link">
            {title}
          </Link>
        ) : (
          <span className="font-medium break-words" data-testid="history-title">{title}</span>
        )}
        <span className="text-xs text-stone-600">
          {platformLabel(entry.source)}
          {entry.lang ? ` · ${entry.lang}` : ""}
          {showId && (
            <>
              {" · "}
              <span className="font-mono break-all">{entry.video_id}</span>
            </>
          )}
        </span>
      </div>
    </div>
  );
}

function Thumbnail({ entry }: { entry: TranscriptionEntry }) {
  if (entry.thumbnail_url) {
    // A platform image on its own host (img-src allows it); the address alone says nothing about the user.
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={entry.thumbnail_url} alt="" width={64} height={36} loading="lazy" referrerPolicy="no-referrer" className="h-9 w-16 shrink-0 rounded bg-stone-200 object-cover" data-testid="history-thumbnail" />;
  }
  return (
    <span aria-hidden="true" className="flex h-9 w-16 shrink-0 items-center justify-center rounded bg-stone-100 text-xs font-medium text-stone-600">
      {entry.source === "upload" ? "File" : entry.source === "podcast" ? "Audio" : platformLabel(entry.source)}
    </span>
  );
}

function Created({ entry }: { entry: TranscriptionEntry }) {
  if (!entry.created_at) return <>—</>;
  return (
    <time dateTime={entry.created_at} title={entry.created_at}>
      {new Date(entry.created_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

function Duration({ entry }: { entry: TranscriptionEntry }) {
  if (entry.status === "error" && entry.total_seconds === 0) return <>—</>;
  if (entry.status === "in_progress" && entry.duration_seconds < entry.total_seconds) {
    return <>{formatClock(entry.duration_seconds)} of {formatClock(entry.total_seconds)}</>;
  }
  return <>{formatClock(entry.total_seconds)}</>;
}

const BADGE_CLASSES = {
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  in_progress: "bg-amber-50 text-amber-800 ring-amber-200",
  error: "bg-red-50 text-red-800 ring-red-200",
} as const;

function StateCell({ entry }: { entry: TranscriptionEntry }) {
  const state = entry.status === "in_progress" || entry.status === "error" || entry.status === "done" ? entry.status : entry.complete ? "done" : null;
  if (!state) return <span className="text-stone-600">{entry.status ?? "—"}</span>;
  const canonical = canonicalSourceUrl(entry.source, entry.video_id);
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <Badge state={state} />
        {state === "in_progress" && entry.job_id && (
          <Link href={watchJobHref(entry.job_id)} className="text-xs underline decoration-stone-300 hover:decoration-stone-900" data-testid="history-watch-link">
            Watch
          </Link>
        )}
        {state === "error" && canonical && (
          <Link href={transcribeHref(canonical, entry.lang)} className="text-xs underline decoration-stone-300 hover:decoration-stone-900" data-testid="history-retry-link">
            Try again
          </Link>
        )}
      </div>
      {state === "error" && (
        <p className="text-xs break-words text-red-800" data-testid="history-failure-reason">
          {entry.error?.message || "The transcription failed."}
        </p>
      )}
    </div>
  );
}

function Badge({ state }: { state: keyof typeof BADGE_CLASSES }) {
  // Lower case in the text (as the API names states), capitalised on screen.
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset first-letter:uppercase ${BADGE_CLASSES[state]}`} data-testid="history-state-badge">
      {STATE_LABELS[state].toLowerCase()}
    </span>
  );
}

const actionClass = "rounded-md border border-stone-300 bg-white px-2 py-1 text-xs hover:bg-stone-100";

/** Download (text and SRT), publish and delete; delete asks once more, in place. */
function Actions({ entry, onDelete }: { entry: TranscriptionEntry; onDelete: (entry: TranscriptionEntry) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // What POST /v1/publish takes for this entry: the stored transcript's source (also an upload's or an episode's).
  const publishUrl = entry.source_url ?? canonicalSourceUrl(entry.source, entry.video_id);
  const running = entry.status === "in_progress";
  const name = displayTitle(entry);
  if (confirming) {
    return (
      <div role="group" aria-label={`Delete ${name}?`} className="flex flex-wrap items-center gap-2 text-xs" data-testid="history-delete-confirm">
        <span>Delete from your history?</span>
        <button
          type="button"
          autoFocus
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onDelete(entry);
            } finally {
              setBusy(false);
              setConfirming(false);
            }
          }}
          className="rounded-md bg-red-700 px-2 py-1 text-white hover:bg-red-800 disabled:opacity-50"
        >
          {busy ? "Deleting…" : "Delete"}
        </button>
        <button type="button" onClick={() => setConfirming(false)} className={actionClass}>
          Keep
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {entry.transcript_id && (
        <>
          <a href={downloadHref(entry.transcript_id, "text")} download className={actionClass} aria-label={`Download .txt of ${name}`} data-testid="history-download-txt">
            .txt
          </a>
          <a href={downloadHref(entry.transcript_id, "srt")} download className={actionClass} aria-label={`Download .srt of ${name}`} data-testid="history-download-srt">
            .srt
          </a>
        </>
      )}
      {publishUrl && entry.complete && entry.lang ? <PublishButton url={publishUrl} lang={entry.lang} compact /> : null}
      {!running && (
        <button type="button" onClick={() => setConfirming(true)} className={`${actionClass} text-red-800`} aria-label={`Delete ${name}`} data-testid="history-delete">
          Delete
        </button>
      )}
    </div>
  );
}

function Pagination({ params, total, shown, onPage }: { params: HistoryParams; total: number; shown: number; onPage: (page: number) => void }) {
  const offset = (params.page - 1) * HISTORY_PAGE_SIZE;
  const from = shown > 0 ? offset + 1 : 0;
  const to = offset + shown;
  const buttonClass = "rounded-md border border-stone-300 bg-white px-3 py-1.5 hover:bg-stone-100 disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3 text-sm text-stone-600">
      <p data-testid="history-range">
        {from}–{to} of {total}
      </p>
      <div className="flex gap-2">
        <button type="button" disabled={params.page <= 1} onClick={() => onPage(params.page - 1)} className={buttonClass}>
          Previous
        </button>
        <button type="button" disabled={offset + HISTORY_PAGE_SIZE >= total} onClick={() => onPage(params.page + 1)} className={buttonClass}>
          Next
        </button>
      </div>
    </nav>
  );
}
