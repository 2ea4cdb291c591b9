"use client";

import { useEffect, useId, useMemo, useState } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { PublishButton } from "@/components/dashboard/publish-button";
import {
  canonicalSourceUrl,
  DEFAULT_HISTORY_PARAMS,
  fetchJob,
  fetchTranscriptions,
  formatClock,
  hasHistoryFilters,
  HISTORY_PAGE_SIZE,
  HISTORY_PLATFORM_OPTIONS,
  HISTORY_STATES,
  historySearch,
  jobKey,
  jobStatusLabel,
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

  return (
    <div className="flex flex-col gap-4">
      <div role="search" className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-56 flex-1 flex-col gap-1 text-sm">
          <label htmlFor={ids.q} className="font-medium">
            Search by video ID
          </label>
          <input
            id={ids.q}
            type="search"
            value={draft}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. dQw4w9"
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
              No transcriptions yet. <Link href="/dashboard" className="underline">Transcribe a link</Link> and it shows up here.
            </p>
          )}
        </div>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
            <table className="w-full text-left text-sm" aria-busy={list.isFetching} data-testid="history-table">
              <caption className="sr-only">Your transcriptions</caption>
              <thead className="border-b border-stone-200 bg-stone-50 text-xs tracking-wide text-stone-500 uppercase">
                <tr>
                  <SortHeader column="created_at" label="Created" params={params} onSort={update} />
                  <th scope="col" className="px-4 py-2 font-medium">Platform</th>
                  <th scope="col" className="px-4 py-2 font-medium">Video ID</th>
                  <th scope="col" className="px-4 py-2 font-medium">Language</th>
                  <SortHeader column="total_seconds" label="Duration" params={params} onSort={update} numeric />
                  <SortHeader column="duration_seconds" label="Transcribed" params={params} onSort={update} numeric />
                  <th scope="col" className="px-4 py-2 font-medium">State</th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    <span className="sr-only">Publish</span>
                  </th>
                </tr>
              </thead>
              <tbody className={`divide-y divide-stone-100 ${list.isPlaceholderData ? "opacity-60" : ""}`}>
                {list.data.transcriptions.map((entry) => (
                  <Row key={entry.id} entry={entry} />
                ))}
                {list.data.transcriptions.length === 0 && (
                  <tr>
                    <td colSpan={8} className="px-4 py-6 text-center text-stone-600">
                      Nothing on this page.{" "}
                      <button type="button" onClick={() => navigate({ ...params, page: 1 })} className="underline">
                        Back to the first page
                      </button>
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pagination params={params} total={list.data.total} shown={list.data.transcriptions.length} onPage={(page) => navigate({ ...params, page })} />
        </>
      )}
    </div>
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
  const nextOrder = active && params.order === "desc" ? "asc" : "desc";
  return (
    <th scope="col" aria-sort={active ? (params.order === "asc" ? "ascending" : "descending") : undefined} className={`px-4 py-2 font-medium ${numeric ? "text-right" : ""}`}>
      <button
        type="button"
        onClick={() => onSort({ sort: column, order: active ? nextOrder : "desc" })}
        className={`inline-flex items-center gap-1 uppercase hover:text-stone-900 ${active ? "text-stone-900" : ""}`}
        data-testid={`sort-${column}`}
      >
        {label}
        <span aria-hidden="true" className={active ? "" : "text-stone-300"}>
          {active && params.order === "asc" ? "▲" : "▼"}
        </span>
      </button>
    </th>
  );
}

function Row({ entry }: { entry: TranscriptionEntry }) {
  const canonical = canonicalSourceUrl(entry.source, entry.video_id);
  // Uploads and podcasts have no page to ask again: their finished job shows the transcript.
  const href = canonical ? transcribeHref(canonical, entry.lang) : entry.job_id && entry.status === "done" ? watchJobHref(entry.job_id) : null;
  // What POST /v1/publish takes for this entry: the stored transcript's source (also an upload's or an episode's).
  const publishUrl = entry.source_url ?? canonical;
  return (
    <tr className="hover:bg-stone-50" data-testid="history-row">
      <td className="px-4 py-2 whitespace-nowrap text-stone-600">
        {entry.created_at ? (
          <time dateTime={entry.created_at} title={entry.created_at}>
            {new Date(entry.created_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
          </time>
        ) : (
          "—"
        )}
      </td>
      <td className="px-4 py-2">{platformLabel(entry.source)}</td>
      <td className="max-w-56 truncate px-4 py-2 font-mono text-xs">
        {href ? (
          <Link href={href} className="underline decoration-stone-300 hover:decoration-stone-900" title={`Open ${entry.video_id}`} data-testid="history-video-link">
            {entry.video_id}
          </Link>
        ) : (
          <span title={entry.video_id}>{entry.video_id}</span>
        )}
      </td>
      <td className="px-4 py-2">{entry.lang ?? "—"}</td>
      <td className="px-4 py-2 text-right tabular-nums">{formatClock(entry.total_seconds)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{formatClock(entry.duration_seconds)}</td>
      <td className="px-4 py-2">
        <StateBadge entry={entry} />
      </td>
      <td className="px-4 py-2">{publishUrl && entry.complete && entry.lang ? <PublishButton url={publishUrl} lang={entry.lang} compact /> : null}</td>
    </tr>
  );
}

const BADGE_CLASSES = {
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  in_progress: "bg-amber-50 text-amber-800 ring-amber-200",
  error: "bg-red-50 text-red-800 ring-red-200",
} as const;

function StateBadge({ entry }: { entry: TranscriptionEntry }) {
  const state = entry.status === "in_progress" || entry.status === "error" || entry.status === "done" ? entry.status : entry.complete ? "done" : null;
  if (!state) return <span className="text-stone-400">{entry.status ?? "—"}</span>;
  if (state === "error" && entry.job_id) return <FailedState jobId={entry.job_id} />;
  return (
    <div className="flex items-center gap-2 whitespace-nowrap">
      <Badge state={state} />
      {state === "in_progress" && entry.job_id && (
        <Link href={watchJobHref(entry.job_id)} className="text-xs underline decoration-stone-300 hover:decoration-stone-900" data-testid="history-watch-link">
          Watch
        </Link>
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

/** A failed row: "Why?" shows the job's error message, fetched when first asked for (or hovered). */
function FailedState({ jobId }: { jobId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  const options = { queryKey: jobKey(jobId), queryFn: () => fetchJob(jobId), staleTime: Infinity };
  const job = useQuery({ ...options, enabled: open });
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex items-center gap-2 whitespace-nowrap">
        <Badge state="error" />
        <button
          type="button"
          aria-expanded={open}
          aria-controls={reasonId}
          onMouseEnter={() => void queryClient.prefetchQuery(options)}
          onFocus={() => void queryClient.prefetchQuery(options)}
          onClick={() => setOpen((value) => !value)}
          className="text-xs text-stone-600 underline decoration-stone-300 hover:text-stone-900"
          data-testid="history-failure-toggle"
        >
          {open ? "Hide" : "Why?"}
        </button>
      </div>
      <p id={reasonId} hidden={!open} className="max-w-64 text-xs text-red-800" data-testid="history-failure-reason">
        {open && (job.isPending ? "Loading…" : job.isError ? job.error.message : (job.data.error?.message ?? jobStatusLabel(job.data)))}
      </p>
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
